/**
 * /v4/transactions and their refunds: create, read, list (cursor pages, the refunds of a
 * transaction too). Create bodies are
 * validated once, with the schema of the account's mode (`validRequest`).
 */
import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { notFound } from '../../domain/errors.js';
import { transactionMatchInput } from '../../domain/transactions.js';
import { secured } from '../auth.js';
import type { ApiEnv } from '../env.js';
import { refundView } from '../formatters/refund.js';
import { transactionView, transactionViewJson, type TransactionResponse } from '../formatters/transaction.js';
import { jsonText } from '../json-text.js';
import { scenarioFault } from '../faults.js';
import { idempotent } from '../idempotency.js';
import { pageEnvelope, pageEnvelopeJson, pageQuerySchema, pageRequest, pageSchema, type PageEnvelope } from '../pagination.js';
import { createRouter } from '../router.js';
import { accountHeaderParameters, conflictResponse, errorResponses, idempotencyHeaderParameters, idempotentReplayedHeader, uuidPathParams } from '../schemas.js';
import { documentedBody, validRequest } from '../validation.js';
import { refundCreateSchema, refundSchema, transactionCreateDocument, transactionCreateSchema, transactionSchema } from './transactions.schemas.js';

const idParam = uuidPathParams('transaction_id', '7099948d-7286-47e4-aad8-b68f7eb44591');
const security = [{ bearerAuth: [] }];

const create = createRoute({
  method: 'post',
  path: '/transactions',
  tags: ['Transactions'],
  summary: 'Create a transaction (PENDING until its outcome)',
  operationId: 'createTransaction',
  security,
  middleware: secured('transactions.write'),
  parameters: idempotencyHeaderParameters,
  request: { body: documentedBody('TransactionCreate') },
  responses: { 201: { description: 'Created', headers: idempotentReplayedHeader, content: { 'application/json': { schema: transactionSchema } } }, ...errorResponses, ...conflictResponse },
});

const get = createRoute({
  method: 'get',
  path: '/transactions/{transaction_id}',
  tags: ['Transactions'],
  summary: 'Get a transaction',
  operationId: 'getTransaction',
  security,
  middleware: secured('transactions.read'),
  parameters: accountHeaderParameters,
  request: { params: idParam },
  responses: { 200: { description: 'The transaction', content: { 'application/json': { schema: transactionSchema } } }, ...errorResponses },
});

const list = createRoute({
  method: 'get',
  path: '/transactions',
  tags: ['Transactions'],
  summary: 'List transactions, newest first',
  operationId: 'listTransactions',
  security,
  middleware: secured('transactions.read'),
  parameters: accountHeaderParameters,
  request: { query: pageQuerySchema },
  responses: { 200: { description: 'A page', content: { 'application/json': { schema: pageSchema(transactionSchema, 'Transactions') } } }, ...errorResponses },
});

const createRefund = createRoute({
  method: 'post',
  path: '/transactions/{transaction_id}/refunds',
  tags: ['Refunds'],
  summary: 'Refund a SUCCEEDED transaction (default: the whole remainder)',
  operationId: 'createRefund',
  security,
  middleware: secured('refunds.write'),
  parameters: idempotencyHeaderParameters,
  request: { params: idParam, body: documentedBody('RefundCreate', false) },
  responses: { 201: { description: 'Created', headers: idempotentReplayedHeader, content: { 'application/json': { schema: refundSchema } } }, ...errorResponses, ...conflictResponse },
});

const listRefunds = createRoute({
  method: 'get',
  path: '/transactions/{transaction_id}/refunds',
  tags: ['Refunds'],
  summary: "List a transaction's refunds, newest first (a page envelope)",
  operationId: 'listRefunds',
  security,
  middleware: secured('transactions.read'),
  parameters: accountHeaderParameters,
  request: { params: idParam, query: pageQuerySchema },
  responses: { 200: { description: 'A page of refunds', content: { 'application/json': { schema: pageSchema(refundSchema, 'Refunds') } } }, ...errorResponses },
});

/** The transaction routes, mounted under /v4. */
export function transactionRoutes(): OpenAPIHono<ApiEnv> {
  const app = createRouter<ApiEnv>();
  app.openAPIRegistry.register('TransactionCreate', transactionCreateDocument);
  app.openAPIRegistry.register('RefundCreate', refundCreateSchema);

  const findTransaction = (c: Context<ApiEnv>, id: string) => {
    const tx = c.get('sandbox').stores.transactions.byId(c.get('account').id, id);
    if (!tx) throw notFound(`Transaction ${id} not found`);
    return tx;
  };

  app.openapi(create, async (c) => {
    const account = c.get('account');
    const input = validRequest(c, { body: transactionCreateSchema(account.mode) });
    const match = transactionMatchInput(input);
    await scenarioFault(c, match);
    return idempotent(c, 201, () => {
      const sandbox = c.get('sandbox');
      const tx = sandbox.transactions.create(account, input, { match });
      return transactionView(tx, sandbox.baseUrl, account.mode);
    });
  });

  app.openapi(get, (c) => {
    const tx = findTransaction(c, c.req.valid('param').transaction_id);
    return jsonText<TransactionResponse, 200>(c, transactionViewJson(tx, c.get('sandbox').baseUrl, c.get('account').mode), 200);
  });

  app.openapi(list, (c) => {
    const query = c.req.valid('query');
    const sandbox = c.get('sandbox');
    const account = c.get('account');
    const list = { list: 'transactions', scope: account.id };
    const page = sandbox.stores.transactions.page(account.id, pageRequest(query, list));
    // The page's JSON is put together from each transaction's kept JSON text: what c.json would send.
    return jsonText<PageEnvelope<TransactionResponse>, 200>(c, pageEnvelopeJson(page, query.limit, (row) => transactionViewJson(row, sandbox.baseUrl, account.mode), list), 200);
  });

  app.openapi(createRefund, (c) => {
    const input = validRequest(c, { body: refundCreateSchema, bodyOptional: true });
    return idempotent(c, 201, () => {
      const tx = findTransaction(c, c.req.valid('param').transaction_id);
      return refundView(c.get('sandbox').transactions.refund(tx.id, input));
    });
  });

  app.openapi(listRefunds, (c) => {
    const tx = findTransaction(c, c.req.valid('param').transaction_id);
    const query = c.req.valid('query');
    const list = { list: 'refunds', scope: `${c.get('account').id}\n${tx.id}` };
    const page = c.get('sandbox').stores.transactions.refundsPage(tx.id, pageRequest(query, list));
    return c.json(pageEnvelope(page, query.limit, refundView, list), 200);
  });

  return app;
}
