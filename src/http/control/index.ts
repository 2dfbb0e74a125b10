/**
 * The control API under /_sandbox (contract: Control API): health, credentials, accounts,
 * outcomes by hand, the clock, the delivery log, the request log, the change feed and reset.
 * Used by the panel and by CI scripts; answers with the same error envelope as the API.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { credentialsOf, newAccount } from '../../domain/accounts.js';
import { seedBuyers } from '../../domain/buyers.js';
import { isoTimestamp } from '../../domain/clock.js';
import { notFound } from '../../domain/errors.js';
import { CURRENCY_CODES, currencyExponent } from '../../domain/money.js';
import { refundTransaction, resolveTransaction } from '../../domain/transactions.js';
import type { AccountRow } from '../../store/accounts.js';
import type { AppEnv } from '../env.js';
import { deliveryView, refundView, requestLogView, transactionView } from '../formatters.js';
import { pageEnvelope, pageQuerySchema, pageRequest } from '../pagination.js';
import { amountSchema, errorSchema } from '../schemas.js';
import type { Hook } from '../routes/hook.js';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const errors = {
  400: json(errorSchema, 'Bad request'),
  404: json(errorSchema, 'Not found'),
  409: json(errorSchema, 'Illegal transition'),
};
const anyObject = z.record(z.string(), z.unknown());
const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
const accountQuery = z.object({ account_id: z.string().optional() });

const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 60 * 60;

/** The /_sandbox routes. */
export function controlRoutes(hook: Hook): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: hook });
  const tags = ['Sandbox control (extension)'];

  const accountOr404 = (sandboxAccounts: { byId(id: string): AccountRow | undefined }, id: string | undefined): AccountRow | undefined => {
    if (id === undefined) return undefined;
    const account = sandboxAccounts.byId(id);
    if (!account) throw notFound(`Merchant account ${id} not found`);
    return account;
  };

  app.openapi(createRoute({ method: 'get', path: '/health', tags, summary: 'Ready check', responses: { 200: json(z.object({ status: z.literal('ok'), now: z.string() })) } }), (c) =>
    c.json({ status: 'ok' as const, now: isoTimestamp(c.get('sandbox').clock.nowMs()) }, 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: '/credentials', tags, summary: 'Demo and created accounts with their credentials, and the webhook public key', responses: { 200: json(anyObject) } }),
    (c) => {
      const sandbox = c.get('sandbox');
      return c.json({ accounts: sandbox.stores.accounts.all().map(credentialsOf), webhook_public_key_pem: sandbox.webhookPublicKeyPem }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts',
      tags,
      summary: 'Create an isolated account with fresh credentials',
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ mode: z.enum(['direct', 'checkout']), name: z.string().min(1).max(64).optional() }) } } } },
      responses: { 201: json(anyObject, 'Created'), 400: errors[400] },
    }),
    async (c) => {
      const sandbox = c.get('sandbox');
      const { mode, name } = c.req.valid('json');
      const row = await newAccount(mode, name, sandbox.clock.nowMs());
      sandbox.db.transaction(() => {
        sandbox.stores.accounts.insert(row);
        seedBuyers(sandbox.stores.buyers, row.id, sandbox.options.seed, sandbox.clock.nowMs());
      })();
      sandbox.emit('account.created', row.id, { id: row.id });
      return c.json(credentialsOf(row), 201);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/currencies', tags, summary: 'ISO 4217 minor-unit exponent of every accepted currency (for showing amounts in major units)', responses: { 200: json(z.object({ exponents: z.record(z.string(), z.number().int()) })) } }),
    (c) => c.json({ exponents: Object.fromEntries(CURRENCY_CODES.map((code) => [code, currencyExponent(code)])) }, 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: '/webhook-public-key', tags, summary: 'The webhook public key (PEM)', responses: { 200: { description: 'PEM', content: { 'application/x-pem-file': { schema: z.string() } } } } }),
    (c) => c.body(c.get('sandbox').webhookPublicKeyPem, 200, { 'content-type': 'application/x-pem-file' }),
  );

  app.openapi(
    createRoute({ method: 'get', path: '/transactions', tags, summary: "An account's transactions with their refunds, newest first", request: { query: pageQuerySchema.extend({ account_id: z.string() }) }, responses: { 200: json(anyObject), 400: errors[400], 404: errors[404] } }),
    (c) => {
      const sandbox = c.get('sandbox');
      const query = c.req.valid('query');
      const account = accountOr404(sandbox.stores.accounts, query.account_id)!;
      const page = sandbox.stores.transactions.page(account.id, pageRequest(query));
      return c.json(pageEnvelope(page, query.limit, (row) => ({ ...transactionView(row, sandbox.baseUrl, account.mode), refunds: sandbox.stores.transactions.refundsOf(row.id).map(refundView) })), 200);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/transactions/{id}', tags, summary: 'A transaction with its refunds and deliveries', request: { params: idParam }, responses: { 200: json(anyObject), 404: errors[404] } }),
    (c) => {
      const sandbox = c.get('sandbox');
      const tx = sandbox.stores.transactions.byIdAnyAccount(c.req.valid('param').id);
      if (!tx) throw notFound(`Transaction ${c.req.valid('param').id} not found`);
      const account = sandbox.stores.accounts.byId(tx.account_id)!;
      const { deliveries } = sandbox.stores;
      return c.json({
        ...transactionView(tx, sandbox.baseUrl, account.mode),
        scenario_rule: tx.scenario_rule,
        refunds: sandbox.stores.transactions.refundsOf(tx.id).map(refundView),
        deliveries: deliveries.forResource(tx.id).map((d) => deliveryView(d, deliveries.attemptsOf(d.id))),
      }, 200);
    },
  );

  for (const [action, outcome] of [['settle', 'SUCCEEDED'], ['fail', 'FAILED']] as const) {
    app.openapi(
      createRoute({ method: 'post', path: `/transactions/{id}/${action}`, tags, summary: `Outcome ${outcome} now, and its payment webhook`, request: { params: idParam }, responses: { 200: json(anyObject), 404: errors[404], 409: errors[409] } }),
      (c) => {
        const sandbox = c.get('sandbox');
        const tx = resolveTransaction(sandbox, c.req.valid('param').id, outcome);
        const account = sandbox.stores.accounts.byId(tx.account_id)!;
        return c.json(transactionView(tx, sandbox.baseUrl, account.mode), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/transactions/{id}/refund',
      tags,
      summary: 'Refund as if from the merchant console (default: the remainder)',
      request: { params: idParam, body: { required: false, content: { 'application/json': { schema: z.object({ amount: amountSchema.optional(), reason: z.string().max(255).optional() }) } } } },
      responses: { 201: json(anyObject, 'Created'), 400: errors[400], 404: errors[404] },
    }),
    (c) => {
      const sandbox = c.get('sandbox');
      const tx = sandbox.stores.transactions.byIdAnyAccount(c.req.valid('param').id);
      if (!tx) throw notFound(`Transaction ${c.req.valid('param').id} not found`);
      const refund = refundTransaction(sandbox, tx, c.req.valid('json') ?? {});
      return c.json(refundView(refund), 201);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/clock', tags, summary: 'The sandbox clock', responses: { 200: json(z.object({ now: z.string(), offset_seconds: z.number() })) } }),
    (c) => {
      const { clock } = c.get('sandbox');
      return c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000 }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/clock/advance',
      tags,
      summary: 'Move the clock forward, running all that falls due, in time order',
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ seconds: z.number().positive().max(MAX_ADVANCE_SECONDS) }) } } } },
      responses: { 200: json(z.object({ now: z.string(), offset_seconds: z.number(), steps: z.number() })), 400: errors[400] },
    }),
    async (c) => {
      const sandbox = c.get('sandbox');
      const steps = await sandbox.advanceClock(c.req.valid('json').seconds);
      return c.json({ now: isoTimestamp(sandbox.clock.nowMs()), offset_seconds: sandbox.clock.offsetMs() / 1000, steps }, 200);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/deliveries', tags, summary: 'Webhook delivery log with every attempt, newest first', request: { query: pageQuerySchema.extend(accountQuery.shape) }, responses: { 200: json(anyObject), 400: errors[400], 404: errors[404] } }),
    (c) => {
      const { stores } = c.get('sandbox');
      const query = c.req.valid('query');
      const account = accountOr404(stores.accounts, query.account_id);
      const req = pageRequest(query);
      const page = account ? stores.deliveries.page(account.id, req) : stores.deliveries.pageAll(req);
      return c.json(pageEnvelope(page, query.limit, (d) => deliveryView(d, stores.deliveries.attemptsOf(d.id))), 200);
    },
  );

  app.openapi(
    createRoute({ method: 'post', path: '/deliveries/{id}/resend', tags, summary: 'Send a delivery again: same body, fresh timestamp and signature', request: { params: idParam }, responses: { 202: json(anyObject, 'Queued'), 404: errors[404] } }),
    (c) => {
      const sandbox = c.get('sandbox');
      const row = sandbox.dispatcher.resend(c.req.valid('param').id);
      if (!row) throw notFound(`Delivery ${c.req.valid('param').id} not found`);
      return c.json(deliveryView(row, sandbox.stores.deliveries.attemptsOf(row.id)), 202);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/requests', tags, summary: "The API request log, newest first: one account's, or every request without account_id (401s included)", request: { query: pageQuerySchema.extend(accountQuery.shape) }, responses: { 200: json(anyObject), 400: errors[400], 404: errors[404] } }),
    (c) => {
      const { stores } = c.get('sandbox');
      const query = c.req.valid('query');
      const account = accountOr404(stores.accounts, query.account_id);
      const req = pageRequest(query);
      return c.json(pageEnvelope(account ? stores.requestLog.page(account.id, req) : stores.requestLog.pageAll(req), query.limit, requestLogView), 200);
    },
  );

  app.openapi(
    createRoute({ method: 'post', path: '/reset', tags, summary: 'Empty all data, keep the accounts and credentials', responses: { 200: json(z.object({ status: z.literal('reset') })) } }),
    (c) => {
      c.get('sandbox').reset();
      return c.json({ status: 'reset' as const }, 200);
    },
  );

  // The change feed, as server-sent events.
  app.get('/events', (c) => {
    const sandbox = c.get('sandbox');
    return streamSSE(c, async (stream) => {
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      const unsubscribe = sandbox.events.subscribe(
        (event) => {
          queue.push(JSON.stringify(event));
          wake?.();
        },
        () => {
          ended = true; // the sandbox is stopping
          wake?.();
        },
      );
      stream.onAbort(() => wake?.());
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ now: isoTimestamp(sandbox.clock.nowMs()) }) });
      while (!ended && !stream.aborted && !stream.closed) {
        const next = queue.shift();
        if (next !== undefined) {
          await stream.writeSSE({ event: 'change', data: next });
          continue;
        }
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, 15_000);
        });
        clearTimeout(timer);
        wake = undefined;
        if (queue.length === 0 && !ended && !stream.aborted) await stream.write(': keep-alive\n\n');
      }
      unsubscribe();
    });
  });

  return app;
}
