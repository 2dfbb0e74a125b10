/**
 * /v4/transactions and their refunds: create, read, list (cursor pages, the refunds of a
 * transaction too). Create bodies are
 * validated once, with the schema of the account's mode, by the pipeline's `create`.
 * The router reads through the transaction query port and writes through the transaction
 * service; it is given both (`TransactionRouteDeps`), never the sandbox.
 */
import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { notFound } from '../../core/domain/errors.js';
import type { TransactionQueries } from './ports.js';
import { type TransactionService } from './transactions.js';
import { transactionMatchInput } from './transaction-input.js';
import type { Secured } from '../../core/http/auth.js';
import type { ApiEnv } from '../../core/http/env.js';
import { refundView } from './refund-format.js';
import { transactionView, transactionViewJson, type TransactionResponse } from './transaction-format.js';
import { jsonText } from '../../core/http/json-text.js';
import { pageEnvelope, pageEnvelopeJson, pageQuerySchema, pageRequest, pageSchema, type PageEnvelope } from '../../core/http/pagination.js';
import { createRouter } from '../../core/http/router.js';
import {
  accountHeaderParameters,
  conflictResponse,
  errorResponses,
  idempotencyHeaderParameters,
  idempotentReplayedHeader,
  uuidPathParams,
} from '../../core/http/schemas.js';
import { documentedBody } from '../../core/http/validation.js';
import { bodyPass } from '../../core/http/wire/body-pass.js';
import type { ApiPipeline } from '../../core/http/pipeline.js';
import {
  refundCreateSchema,
  refundSchema,
  transactionCreateDocument,
  transactionCreateSchema,
  transactionSchema,
} from './transactions.schemas.js';

const idParam = uuidPathParams('transaction_id', '7099948d-7286-47e4-aad8-b68f7eb44591');
const security = [{ bearerAuth: [] }];

const create = (secured: Secured) =>
  createRoute({
    method: 'post',
    path: '/transactions',
    tags: ['Transactions'],
    summary: 'Create a transaction (PENDING until its outcome)',
    operationId: 'createTransaction',
    security,
    middleware: secured('transactions.write'),
    parameters: idempotencyHeaderParameters,
    request: { body: documentedBody('TransactionCreate') },
    responses: {
      201: { description: 'Created', headers: idempotentReplayedHeader, content: { 'application/json': { schema: transactionSchema } } },
      ...errorResponses,
      ...conflictResponse,
    },
  });

const get = (secured: Secured) =>
  createRoute({
    method: 'get',
    path: '/transactions/{transaction_id}',
    tags: ['Transactions'],
    summary: 'Get a transaction',
    operationId: 'getTransaction',
    security,
    middleware: secured('transactions.read'),
    parameters: accountHeaderParameters,
    request: { params: idParam },
    responses: {
      200: { description: 'The transaction', content: { 'application/json': { schema: transactionSchema } } },
      ...errorResponses,
    },
  });

const list = (secured: Secured) =>
  createRoute({
    method: 'get',
    path: '/transactions',
    tags: ['Transactions'],
    summary: 'List transactions, newest first',
    operationId: 'listTransactions',
    security,
    middleware: secured('transactions.read'),
    parameters: accountHeaderParameters,
    request: { query: pageQuerySchema },
    responses: {
      200: { description: 'A page', content: { 'application/json': { schema: pageSchema(transactionSchema, 'Transactions') } } },
      ...errorResponses,
    },
  });

const createRefund = (secured: Secured) =>
  createRoute({
    method: 'post',
    path: '/transactions/{transaction_id}/refunds',
    tags: ['Refunds'],
    summary: 'Refund a SUCCEEDED transaction (default: the whole remainder)',
    operationId: 'createRefund',
    security,
    middleware: secured('refunds.write'),
    parameters: idempotencyHeaderParameters,
    request: { params: idParam, body: documentedBody('RefundCreate', false) },
    responses: {
      201: { description: 'Created', headers: idempotentReplayedHeader, content: { 'application/json': { schema: refundSchema } } },
      ...errorResponses,
      ...conflictResponse,
    },
  });

const listRefunds = (secured: Secured) =>
  createRoute({
    method: 'get',
    path: '/transactions/{transaction_id}/refunds',
    tags: ['Refunds'],
    summary: "List a transaction's refunds, newest first (a page envelope)",
    operationId: 'listRefunds',
    security,
    middleware: secured('transactions.read'),
    parameters: accountHeaderParameters,
    request: { params: idParam, query: pageQuerySchema },
    responses: {
      200: { description: 'A page of refunds', content: { 'application/json': { schema: pageSchema(refundSchema, 'Refunds') } } },
      ...errorResponses,
    },
  });

/** What the transaction routes use. */
export interface TransactionRouteDeps {
  /** Reads: a transaction of the account, its pages, its refunds' pages. */
  queries: Pick<TransactionQueries, 'byId' | 'page' | 'refundsPage'>;
  /** Writes: create and refund (the service checks its own preconditions). */
  transactions: Pick<TransactionService, 'create' | 'refund'>;
  pipeline: ApiPipeline;
  /** The base URL of `payment_url` for the request `c` (`--public-url`, else the origin it came in on). */
  baseUrl(c: Context): string;
}

/** The transaction routes, mounted under /v4. */
export function transactionRoutes({ queries, transactions, pipeline, baseUrl }: TransactionRouteDeps): OpenAPIHono<ApiEnv> {
  const { secured, create: created } = pipeline;
  const app = createRouter<ApiEnv>();
  app.openAPIRegistry.register('TransactionCreate', transactionCreateDocument);
  app.openAPIRegistry.register('RefundCreate', refundCreateSchema);
  // The body passes of the creates are compiled now, not on the first request.
  for (const schema of [transactionCreateSchema('direct'), transactionCreateSchema('checkout'), refundCreateSchema]) bodyPass(schema);

  /**
   * The one precondition of the routes on one transaction: it is the caller's account's (the
   * domain's services take bare ids, so tenancy is checked here); an id of another account is
   * unknown, as is an id of none.
   */
  const ownTransaction = (accountId: string, id: string) => {
    const tx = queries.byId(accountId, id);
    if (!tx) throw notFound(`Transaction ${id} not found`);
    return tx;
  };

  app.openapi(create(secured), (c) => {
    const account = c.get('account');
    return created(c, { body: transactionCreateSchema(account.mode), match: transactionMatchInput }, 201, (input, match) =>
      transactionView(transactions.create(account, input, { match: match! }), baseUrl(c), account.mode),
    );
  });

  app.openapi(get(secured), (c) => {
    const tx = ownTransaction(c.get('account').id, c.req.valid('param').transaction_id);
    return jsonText<TransactionResponse, 200>(c, transactionViewJson(tx, baseUrl(c), c.get('account').mode), 200);
  });

  app.openapi(list(secured), (c) => {
    const query = c.req.valid('query');
    const account = c.get('account');
    const list = { list: 'transactions', scope: account.id };
    const page = queries.page(account.id, pageRequest(query, list));
    const base = baseUrl(c);
    // The page's JSON is put together from each transaction's kept JSON text: what c.json would send.
    return jsonText<PageEnvelope<TransactionResponse>, 200>(
      c,
      pageEnvelopeJson(page, query.limit, (row) => transactionViewJson(row, base, account.mode), list),
      200,
    );
  });

  app.openapi(createRefund(secured), (c) => {
    return created(c, { body: refundCreateSchema, bodyOptional: true }, 201, (input) => {
      const tx = ownTransaction(c.get('account').id, c.req.valid('param').transaction_id);
      return refundView(transactions.refund(tx.id, input));
    });
  });

  app.openapi(listRefunds(secured), (c) => {
    const tx = ownTransaction(c.get('account').id, c.req.valid('param').transaction_id);
    const query = c.req.valid('query');
    const list = { list: 'refunds', scope: `${c.get('account').id}\n${tx.id}` };
    const page = queries.refundsPage(tx.id, pageRequest(query, list));
    return c.json(pageEnvelope(page, query.limit, refundView, list), 200);
  });

  return app;
}
