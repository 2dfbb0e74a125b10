// A server for the benchmark, in its own process so load generator and server do not share
// one event loop: `node test/bench/server.js bare [fixture.json]` (a bare Hono endpoint, the baseline) or
// `node test/bench/server.js sandbox [dbPath]` (the sandbox, in memory or on a --db file), or
// `bare-cli --port <n>` (a bare Hono app on a given port: the start-up baseline).
// `floor <fixture.json>` is the framework floor: the sandbox's shape of /v4 (OpenAPIHono routers,
// the same number of middleware layers, zod param and query schemas) with no work in it,
// answering the fixture's `get` and `list` bodies, and, for a POST /v4/transactions (its JSON body
// parsed and checked to be an object, as the body gate and validator do, but not validated
// field by field), the fixture's `create` bytes with 201.
// `storage-floor <fixture.json>` is the create's storage floor: a bare Hono endpoint that checks the
// key, parses the JSON body and, in one transaction over the sandbox's own schema and stores
// (its temporary database, as the sandbox opens it), looks the Idempotency-Key up, inserts the
// transaction's row, the key's record with the answer and the request log's row, then answers
// the fixture's `create` bytes with 201. No validation, redaction, scenarios, go-live facts or
// anything else a create does: what any create costs on this stack before its features.
// `stripe-mock <dir>` is the peer stripe-stateful-mock (an in-memory Express mock of Stripe),
// loaded from `<dir>/node_modules` where run.js installed it (nothing of it is committed).
// Prints `READY <port>` once listening; SIGTERM stops it cleanly (so --cpu-prof is written).
// BENCH_ROOT names the checkout whose dist/ is measured (default: this one), so the same
// benchmark can measure another build, e.g. main before a change.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { KEY } from './create-request.js';

const [kind, dbPath] = process.argv.slice(2);

if (kind === 'bare-cli') {
  // The start-up baseline: a bare Hono app on a given port (`bare-cli --port <n>`), like the CLI.
  const app = new Hono();
  app.get('/bare', (c) => c.json({ ok: true }));
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.argv[4]) });
  process.on('SIGTERM', () => process.exit(0));
} else if (kind === 'bare') {
  const app = new Hono();
  app.get('/bare', (c) => c.json({ ok: true, at: new Date().toISOString() }));
  // With a fixture file (`bare <fixture.json>`), a POST parses its JSON body and answers the
  // fixture's `create` text (the sandbox's own create answer): the same bytes on the wire.
  const answer = dbPath ? JSON.parse(readFileSync(dbPath, 'utf8')).create : undefined;
  app.post('/bare', async (c) => {
    const echo = await c.req.json();
    return answer === undefined ? c.json({ ok: true, echo }, 201) : c.body(answer, 201, { 'Content-Type': 'application/json' });
  });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`READY ${info.port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else if (kind === 'stripe-mock') {
  const { createRequire } = await import('node:module');
  const require = createRequire(`${dbPath}/`);
  const { createExpressApp } = require('stripe-stateful-mock');
  const server = createExpressApp().listen(0, '127.0.0.1', () => console.log(`READY ${server.address().port}`));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
} else if (kind === 'storage-floor') {
  const root = process.env.BENCH_ROOT ? pathToFileURL(`${process.env.BENCH_ROOT}/`).href : new URL('../../', import.meta.url).href;
  const dist = (path) => import(new URL(`dist/${path}`, root).href);
  const [{ openDatabase }, { SANDBOX_SCHEMA }, { idempotencyStore }, { requestLogStore }, { transactionsStore }, { newId }] =
    await Promise.all([
      dist('core/db/database.js'),
      dist('sandbox-schema.js'),
      dist('core/http/idempotency-store.js'),
      dist('core/http/request-log-store.js'),
      dist('features/transactions/index.js'),
      dist('core/domain/ids.js'),
    ]);
  const { createHash } = await import('node:crypto');
  const answer = JSON.parse(readFileSync(dbPath, 'utf8')).create;
  const db = openDatabase(':memory:', SANDBOX_SCHEMA);
  const [keys, log, transactions] = [idempotencyStore(db), requestLogStore(db, 10_000), transactionsStore(db)];
  const create = db.transaction((accountId, idempotencyKey, body, text) => {
    const found = keys.get(accountId, idempotencyKey);
    if (found !== undefined) return found.response_body;
    const now = Date.now();
    const card = body.payment_method;
    transactions.insert({
      id: newId(),
      account_id: accountId,
      status: 'PENDING',
      amount: body.amount,
      currency: body.currency,
      description: body.description ?? null,
      customer: null,
      return_url: null,
      cancel_url: null,
      external_identifier: null,
      notification_url: null,
      metadata: null,
      payment_method: { type: 'card', card: { last4: card.number.slice(-4), expiration_date: card.expiration_date, brand: 'visa' } },
      browser_info: body.browser_info ?? null,
      refunded_amount: 0,
      subscription_id: null,
      scenario_rule: null,
      decline_reason: null,
      link_expires_at: null,
      created_at: now,
      updated_at: now,
      resolved_at: null,
    });
    keys.record(accountId, idempotencyKey, createHash('sha256').update(text).digest('hex'), now, 201, answer);
    log.insertNow({
      account_id: accountId,
      method: 'POST',
      path: '/v4/transactions',
      status: 201,
      idempotency_key: idempotencyKey,
      replayed: false,
      duration_ms: 0,
      request_body: text,
      response_body: answer,
      warnings: [],
      at: now,
      answer_delivered: true,
    });
    return answer;
  });
  const app = new Hono();
  app.post('/v4/transactions', async (c) => {
    if (c.req.header('authorization') !== `Bearer ${KEY}`) return c.json({ error: 'unauthorized' }, 401);
    const text = await c.req.text();
    const body = JSON.parse(text);
    const stored = create(c.req.header('x-merchant-account-id'), c.req.header('idempotency-key'), body, text);
    return c.body(stored, 201, { 'Content-Type': 'application/json' });
  });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`READY ${info.port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else if (kind === 'floor') {
  const { OpenAPIHono, createRoute, z } = await import('@hono/zod-openapi');
  const fixture = JSON.parse(readFileSync(dbPath, 'utf8'));
  const pass = async (c, next) => {
    await next();
  };
  const app = new OpenAPIHono({ getPath: (req) => new URL(req.url).pathname.replace(/\/+$/, '') || '/' });
  // The sandbox's app-level layers: its context variable, the guard that adds nosniff (on the Node response, as security.ts does).
  app.use('*', async (c, next) => {
    c.set('sandbox', fixture);
    await next();
  });
  app.use('*', async (c, next) => {
    c.env.outgoing.setHeader('X-Content-Type-Options', 'nosniff');
    await next();
  });
  const v4 = new OpenAPIHono();
  // Request log, latency, faults; then per route: auth, scope, body gate, and the validator.
  for (let i = 0; i < 3; i++) v4.use('*', pass);
  const ok = { 200: { description: 'ok' } };
  v4.openapi(
    createRoute({
      method: 'get',
      path: '/transactions/{id}',
      middleware: [pass, pass, pass],
      request: { params: z.object({ id: z.string().min(1) }) },
      responses: ok,
    }),
    (c) => c.json(fixture.get, 200),
  );
  v4.openapi(
    createRoute({
      method: 'get',
      path: '/transactions',
      middleware: [pass, pass, pass],
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), cursor: z.string().optional() }) },
      responses: ok,
    }),
    (c) => c.json(fixture.list, 200),
  );
  v4.openapi(
    createRoute({
      method: 'post',
      path: '/transactions',
      middleware: [pass, pass, pass],
      request: { body: { content: { 'application/json': { schema: z.object({}).passthrough() } }, required: true } },
      responses: { 201: { description: 'created' } },
    }),
    (c) => c.body(fixture.create, 201, { 'Content-Type': 'application/json' }),
  );
  app.route('/v4', v4);
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`READY ${info.port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  const root = process.env.BENCH_ROOT ? pathToFileURL(`${process.env.BENCH_ROOT}/`).href : new URL('../../', import.meta.url).href;
  const { startServer } = await import(new URL('dist/server.js', root).href);
  // Started as the CLI starts it: with full collections once traffic stops.
  const server = await startServer({ port: 0, host: '127.0.0.1', ...(dbPath ? { db: dbPath } : {}) }, { collectWhenIdle: true });
  console.log(`READY ${server.port}`);
  process.on('SIGTERM', () => server.stop().then(() => process.exit(0)));
}
