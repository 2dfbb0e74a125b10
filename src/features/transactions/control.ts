/**
 * The control routes of transactions, their definitions and handlers: an account's
 * transactions, one with its deliveries, settle, fail and refund by hand, and the webhook faults
 * a merchant scripts on one (`POST /_sandbox/transactions/{id}/webhook-faults`: a duplicate,
 * delayed, bad-signature or out-of-order copy of its webhooks). Reads go through the query
 * ports; the rest goes to the domain's service or the outbox, whose SandboxError (404 unknown
 * transaction, 409 illegal transition or no webhook yet, 400 nothing to refund) is the answer.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/domain/errors.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { TransactionQueries } from './ports.js';
import { accountOr404, errors, idParam, json, type ControlHandler } from '../../core/http/control-route-parts.js';
import type { AppEnv } from '../../core/http/env.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import { pageEnvelope, pageRequest, pageSchema } from '../../core/http/pagination.js';
import { createRouter } from '../../core/http/router.js';
import { errorSchema } from '../../core/http/schemas.js';
import type { DeliveryViews } from '../webhooks/index.js';
import {
  controlRefundRequestSchema,
  controlTransactionListQuerySchema,
  controlTransactionSchema,
  transactionDetailSchema,
  webhookFaultRequestSchema,
  webhookFaultResultSchema,
} from './control.schemas.js';
import type { TransactionViews } from './control-views.js';
import type { FaultingOutbox } from './outbox.js';
import { refundView } from './refund-format.js';
import type { TransactionService } from './transactions.js';
import { refundSchema } from './transactions.schemas.js';

const list = createRoute({
  method: 'get',
  path: '/transactions',
  ...controlOperation,
  operationId: 'listControlTransactions',
  summary: "An account's transactions with their refunds, newest first",
  request: { query: controlTransactionListQuerySchema },
  responses: { 200: json(pageSchema(controlTransactionSchema, 'ControlTransactionPage')), 400: errors[400], 404: errors[404] },
});

const getOne = createRoute({
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

const settle = outcomeRoute('settle', 'SUCCEEDED');
const fail = outcomeRoute('fail', 'FAILED');

const refund = createRoute({
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

const injectFault = createRoute({
  method: 'post',
  path: '/transactions/{id}/webhook-faults',
  operationId: 'injectWebhookFault',
  ...controlOperation,
  summary: 'Script a webhook fault on a transaction: a duplicate, delayed, bad-signature or out-of-order copy of its webhooks',
  request: { params: idParam, body: { required: true, content: { 'application/json': { schema: webhookFaultRequestSchema } } } },
  responses: {
    201: json(webhookFaultResultSchema, 'Queued'),
    400: json(errorSchema, 'Bad request'),
    404: json(errorSchema, 'Not found'),
    409: json(errorSchema, 'No webhook (or no refund) yet'),
  },
});

/** What the transaction routes use. */
export interface TransactionControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  transactions: Pick<TransactionQueries, 'page' | 'byIdAnyAccount'>;
  service: Pick<TransactionService, 'resolve' | 'refund'>;
  views: TransactionViews;
}

/** `/_sandbox/transactions`: an account's transactions, one with its deliveries, and outcomes and refunds by hand. */
export function transactionControlRoutes(deps: TransactionControlDeps): OpenAPIHono<AppEnv> {
  const listHandler: ControlHandler<typeof list> = (c) => {
    const query = c.req.valid('query');
    const account = accountOr404(deps.accounts, query.account_id)!;
    const scope = { list: '_sandbox/transactions', scope: account.id };
    const page = deps.transactions.page(account.id, pageRequest(query, scope));
    return c.json(
      pageEnvelope(page, query.limit, (row) => deps.views.transaction(row, account.mode), scope),
      200,
    );
  };
  const getOneHandler: ControlHandler<typeof getOne> = (c) => {
    const { id } = c.req.valid('param');
    const tx = deps.transactions.byIdAnyAccount(id);
    if (!tx) throw notFound(`Transaction ${id} not found`);
    return c.json(deps.views.transactionDetail(tx), 200);
  };
  const outcome =
    (to: 'SUCCEEDED' | 'FAILED'): ControlHandler<typeof settle | typeof fail> =>
    (c) =>
      c.json(deps.views.transactionOf(deps.service.resolve(c.req.valid('param').id, to)), 200);
  const refundHandler: ControlHandler<typeof refund> = (c) =>
    c.json(refundView(deps.service.refund(c.req.valid('param').id, c.req.valid('json') ?? {})), 201);
  return createRouter<AppEnv>()
    .openapi(list, listHandler)
    .openapi(getOne, getOneHandler)
    .openapi(settle, outcome('SUCCEEDED'))
    .openapi(fail, outcome('FAILED'))
    .openapi(refund, refundHandler);
}

/** `POST /_sandbox/transactions/{id}/webhook-faults`: queues copies of a transaction's webhooks that play the fault. */
export function webhookFaultControlRoutes(deps: {
  outbox: Pick<FaultingOutbox, 'injectFault'>;
  views: DeliveryViews;
}): OpenAPIHono<AppEnv> {
  const inject: ControlHandler<typeof injectFault> = (c) => {
    const { fault, seconds } = c.req.valid('json');
    const queued = deps.outbox.injectFault(c.req.valid('param').id, { kind: fault, ...(seconds !== undefined ? { seconds } : {}) });
    return c.json({ deliveries: queued.map(deps.views.delivery) }, 201);
  };
  return createRouter<AppEnv>().openapi(injectFault, inject);
}
