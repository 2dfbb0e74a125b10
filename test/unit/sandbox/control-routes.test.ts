/**
 * The control routers alone, on fakes of their ports (plain objects): no sandbox is composed,
 * no database opened. Each test mounts one router factory with the deps it declares and
 * reads its answers through `app.request()`, with the app's own error handler.
 */
import { describe, expect, it } from 'vitest';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Account } from '../../../src/features/accounts/entities.js';
import type { Transaction } from '../../../src/features/transactions/entities.js';
import { invalidState, notFound } from '../../../src/core/domain/errors.js';
import type { Page, PageRequest } from '../../../src/core/domain/ports.js';
import { AdvanceTooLongError } from '../../../src/core/clock/timed-work.js';
import { clockControlRoutes, requestLogControlRoutes, type ClockControlDeps } from '../../../src/features/sandbox/control.js';
import { transactionControlRoutes, type TransactionControlDeps } from '../../../src/features/transactions/control.js';
import type { ControlTransaction } from '../../../src/features/transactions/control.schemas.js';
import type { AppEnv } from '../../../src/core/http/env.js';
import { errorHandler } from '../../../src/core/http/errors.js';
import { jsonBody } from '../../../src/core/http/body.js';
import { createRouter } from '../../../src/core/http/router.js';
import type { RequestLogEntry, RequestLogFilter } from '../../../src/core/http/ports.js';
import { transactionEntity } from '../../support/fakes.js';

/** Unexpected errors answer 500 with the envelope; these tests do not log them. */
const onError = errorHandler({ error: () => undefined });

const account: Account = {
  id: 'acc_1',
  name: 'Shop',
  mode: 'direct',
  api_key: 'k',
  jwt_kid: 'kid',
  jwt_private_key_pem: '',
  jwt_public_key_pem: '',
  created_at: 0,
};

const tx = (id: string, status: Transaction['status'] = 'PENDING'): Transaction =>
  transactionEntity({ id, account_id: account.id, status, amount: 1000, currency: 'EUR' });

const page = <T>(rows: T[]): Page<T> => ({ rows, nextKey: null, previousKey: null });

/** A control view of a row, enough to tell which row and which view answered. */
const shown = (row: Transaction) => ({ id: row.id, status: row.status }) as unknown as ControlTransaction;

/** The router behind the control API's body gate, as the app mounts it, with the app's error handler. */
function mounted(router: OpenAPIHono<AppEnv>) {
  const app = createRouter<AppEnv>();
  app.use('*', jsonBody({ maxSize: 64 * 1024 }));
  app.route('/', router);
  app.onError(onError);
  return app;
}

function transactionsRouter(overrides: Partial<TransactionControlDeps> = {}) {
  const calls: string[] = [];
  const rows = new Map([['tx_1', tx('tx_1')]]);
  const deps: TransactionControlDeps = {
    accounts: { byId: (id) => (id === account.id ? account : undefined) },
    transactions: {
      page: (accountId, req: PageRequest) => {
        calls.push(`page ${accountId} ${req.limit}`);
        return page([...rows.values()]);
      },
      byIdAnyAccount: (id) => rows.get(id),
    },
    service: {
      resolve: (id, outcome) => {
        calls.push(`resolve ${id} ${outcome}`);
        const row = rows.get(id);
        if (!row) throw notFound(`Transaction ${id} not found`);
        if (row.status !== 'PENDING') throw invalidState(`Transaction ${id} is already ${row.status}`);
        return { ...row, status: outcome };
      },
      refund: (id, input) => {
        calls.push(`refund ${id} ${JSON.stringify(input)}`);
        throw notFound(`Transaction ${id} not found`);
      },
    },
    views: {
      transaction: (row, mode) => ({ ...shown(row), mode }) as unknown as ControlTransaction,
      transactionOf: shown,
      transactionDetail: (row) => ({ ...shown(row), deliveries: [] }) as never,
    },
    ...overrides,
  };
  return { app: mounted(transactionControlRoutes(deps)), calls, rows };
}

describe('transactionControlRoutes on fake ports', () => {
  it('lists an account’s transactions through the query port and the views', async () => {
    const { app, calls } = transactionsRouter();
    const res = await app.request('/transactions?account_id=acc_1&limit=5');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: unknown[]; limit: number };
    expect(body).toEqual({
      items: [{ id: 'tx_1', status: 'PENDING', mode: 'direct' }],
      limit: 5,
      next_cursor: null,
      previous_cursor: null,
    });
    expect(calls).toEqual(['page acc_1 5']);
  });

  it('answers 404 for an unknown account, with the spec envelope', async () => {
    const { app } = transactionsRouter();
    const res = await app.request('/transactions?account_id=acc_nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', status: 404, message: 'Merchant account acc_nope not found' });
  });

  it('settles through the service and answers the control view', async () => {
    const { app, calls } = transactionsRouter();
    const res = await app.request('/transactions/tx_1/settle', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'tx_1', status: 'SUCCEEDED' });
    expect(calls).toEqual(['resolve tx_1 SUCCEEDED']);
  });

  it('lets the domain decide a missing transaction: its SandboxError is the answer, no lookup before', async () => {
    let looked = 0;
    const { app, calls } = transactionsRouter({
      transactions: {
        page: () => page([]),
        byIdAnyAccount: () => {
          looked += 1;
          return undefined;
        },
      },
    });
    for (const action of ['fail', 'refund']) {
      const res = await app.request(`/transactions/tx_gone/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: action === 'refund' ? '{"amount":100}' : undefined,
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found', message: 'Transaction tx_gone not found' });
    }
    expect(looked).toBe(0);
    expect(calls).toEqual(['resolve tx_gone FAILED', 'refund tx_gone {"amount":100}']);
  });

  it('maps the domain’s illegal transition to 409', async () => {
    const { app, rows } = transactionsRouter();
    rows.set('tx_done', tx('tx_done', 'SUCCEEDED'));
    const res = await app.request('/transactions/tx_done/fail', { method: 'POST' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ status: 409, message: 'Transaction tx_done is already SUCCEEDED' });
  });

  it('answers a read of an unknown transaction with 404 from the query port', async () => {
    const { app } = transactionsRouter();
    const res = await app.request('/transactions/tx_nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', message: 'Transaction tx_nope not found' });
  });
});

describe('clockControlRoutes on a fake clock and a fake ClockControl', () => {
  function clockRouter(advanceClock: ClockControlDeps['control']['advanceClock']) {
    let offsetMs = 0;
    const base = Date.UTC(2026, 0, 31, 12);
    const deps: ClockControlDeps = { clock: { nowMs: () => base + offsetMs, offsetMs: () => offsetMs }, control: { advanceClock } };
    return { app: mounted(clockControlRoutes(deps)), move: (ms: number) => (offsetMs += ms) };
  }

  it('turns calendar months into seconds on the sandbox clock and answers the moved clock', async () => {
    const asked: [number, unknown][] = [];
    const { app, move } = clockRouter(async (seconds, options) => {
      asked.push([seconds, options]);
      move(seconds * 1000);
      return 3;
    });
    const res = await app.request('/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"months":1,"wait_for_webhooks":false}',
    });
    expect(res.status).toBe(200);
    // Jan 31 + 1 month = Feb 28 (clamped to the month's end).
    expect(asked).toEqual([[28 * 24 * 3600, { waitForWebhooks: false }]]);
    expect(await res.json()).toEqual({ now: '2026-02-28T12:00:00.000+00:00', offset_seconds: 28 * 24 * 3600, steps: 3 });
  });

  it('names the field that asked for too much when the advance is refused', async () => {
    const { app } = clockRouter(async () => {
      throw new AdvanceTooLongError(250_000, 100_000);
    });
    const res = await app.request('/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seconds":99}',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { details: { pointer: string; location: string }[] };
    expect(body.details).toEqual([expect.objectContaining({ pointer: '/seconds', location: 'body' })]);
  });
});

describe('requestLogControlRoutes on a fake request log', () => {
  it('turns the query filters into the store’s filter, and reads without them by account', async () => {
    const found: (RequestLogFilter | string)[] = [];
    const entry: RequestLogEntry = {
      seq: 7,
      account_id: 'acc_1',
      method: 'POST',
      path: '/v4/transactions',
      status: 422,
      idempotency_key: null,
      replayed: false,
      answer_delivered: null,
      duration_ms: 1,
      request_body: null,
      response_body: '{"code":"x","message":"m","details":[]}',
      warnings: [],
      at: 0,
    };
    const app = mounted(
      requestLogControlRoutes({
        accounts: { byId: (id) => (id === account.id ? account : undefined) },
        requestLog: {
          find: (filter) => (found.push(filter), page([entry])),
          page: (accountId) => (found.push(`page ${accountId}`), page([])),
          pageAll: () => (found.push('all'), page([])),
        },
      }),
    );
    const filtered = await app.request('/requests?account_id=acc_1&method=post&status=4xx&path_prefix=/v4/');
    expect(filtered.status).toBe(200);
    const body = (await filtered.json()) as { items: { error: unknown }[] };
    expect(body.items[0]!.error).toEqual({ code: 'x', message: 'm', details: [] });
    expect((await app.request('/requests?account_id=acc_1')).status).toBe(200);
    expect((await app.request('/requests')).status).toBe(200);
    expect(found).toEqual([
      { accountId: 'acc_1', method: 'POST', path: undefined, pathPrefix: '/v4/', status: { min: 400, max: 499 } },
      'page acc_1',
      'all',
    ]);
  });
});
