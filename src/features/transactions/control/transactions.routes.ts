/** Route definitions of the control API's transactions: list, one with its deliveries, settle, fail, refund. */
import { createRoute } from '@hono/zod-openapi';
import { pageSchema } from '../../../core/http/pagination.js';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { refundSchema } from '../transactions.schemas.js';
import { errors, idParam, json } from '../../../core/http/control-route-parts.js';
import {
  controlRefundRequestSchema,
  controlTransactionListQuerySchema,
  controlTransactionSchema,
  transactionDetailSchema,
} from './transactions.schemas.js';

export const list = createRoute({
  method: 'get',
  path: '/transactions',
  ...controlOperation,
  operationId: 'listControlTransactions',
  summary: "An account's transactions with their refunds, newest first",
  request: { query: controlTransactionListQuerySchema },
  responses: { 200: json(pageSchema(controlTransactionSchema, 'ControlTransactionPage')), 400: errors[400], 404: errors[404] },
});

export const getOne = createRoute({
  method: 'get',
  path: '/transactions/{id}',
  ...controlOperation,
  operationId: 'getControlTransaction',
  summary: 'A transaction with its refunds and deliveries',
  request: { params: idParam },
  responses: { 200: json(transactionDetailSchema), 404: errors[404] },
});

const outcomeRoute = <A extends 'settle' | 'fail'>(action: A, outcome: 'SUCCEEDED' | 'FAILED') =>
  createRoute({
    method: 'post',
    path: `/transactions/{id}/${action}` as `/transactions/{id}/${A}`,
    ...controlOperation,
    operationId: `${action}Transaction`,
    summary: `Outcome ${outcome} now, and its payment webhook`,
    request: { params: idParam },
    responses: { 200: json(controlTransactionSchema), 404: errors[404], 409: errors[409] },
  });

export const settle = outcomeRoute('settle', 'SUCCEEDED');
export const fail = outcomeRoute('fail', 'FAILED');

export const refund = createRoute({
  method: 'post',
  path: '/transactions/{id}/refund',
  ...controlOperation,
  operationId: 'refundTransaction',
  summary: 'Refund as if from the merchant console (default: the remainder)',
  request: {
    params: idParam,
    body: {
      required: false,
      content: { 'application/json': { schema: controlRefundRequestSchema } },
    },
  },
  responses: { 201: json(refundSchema, 'Created'), 400: errors[400], 404: errors[404] },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type OutcomeRoute = typeof settle | typeof fail;
export type RefundRoute = typeof refund;
