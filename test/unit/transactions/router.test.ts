/**
 * The /v4 transaction router alone, with fakes of its ports (plain objects), the way emulate
 * wires only the plugin under test: no composed sandbox, no SQLite, no socket. Its pipeline is
 * the real one (auth, validation, idempotency) over fake ports, so what it answers is what the
 * merchant gets; what it calls on the service shows which port each route uses.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../../src/features/accounts/entities.js';
import type { Refund, Transaction } from '../../../src/features/transactions/entities.js';
import type { TransactionService } from '../../../src/features/transactions/transactions.js';
import { apiAuth } from '../../../src/core/http/auth.js';
import { errorHandler } from '../../../src/core/http/errors.js';
import { idempotency } from '../../../src/core/http/idempotency.js';
import { createSteps, securedBy, type ApiPipeline } from '../../../src/core/http/pipeline.js';
import { transactionRoutes } from '../../../src/features/transactions/transactions.api.js';
import { requestValidation } from '../../../src/core/http/validation.js';
import { accountEntity, fakeClock, fakeIdempotencyRecords, transactionEntity } from '../../support/fakes.js';

/** Unexpected errors answer 500 with the envelope; these tests do not log them. */
const onError = errorHandler({ error: () => undefined });

const account = accountEntity;
const A = account('acc_a');
const B = account('acc_b');
const TX_A = '7099948d-7286-47e4-aad8-b68f7eb44591';
const TX_B = '0b7f3c2e-5d41-4c1a-9a57-3f0f6f2b8e11';

/** Idempotency records in a Map. */

/** The router mounted under /v4 of a bare Hono app (with the sandbox's error envelope), over fakes; `calls` lists the service's calls. */
function mount() {
  const rows: Transaction[] = [
    transactionEntity({ id: TX_A, account_id: A.id, status: 'SUCCEEDED' }),
    transactionEntity({ id: TX_B, account_id: B.id, status: 'SUCCEEDED' }),
  ];
  const calls: string[] = [];
  const transactions: Pick<TransactionService, 'create' | 'refund'> = {
    create: (acc, input) => {
      calls.push(`create ${acc.id} ${input.amount}`);
      return transactionEntity({ id: 'tx_new', account_id: acc.id, amount: input.amount, currency: input.currency });
    },
    refund: (id, input): Refund => {
      calls.push(`refund ${id}`);
      return {
        seq: 1,
        id: 'rf_1',
        account_id: A.id,
        transaction_id: id,
        amount: input.amount ?? 1050,
        currency: 'USD',
        reason: null,
        external_identifier: null,
        status: 'SUCCESS',
        created_at: 0,
        updated_at: 0,
      };
    },
  };
  const accounts = [A, B];
  const pipeline: ApiPipeline = {
    secured: securedBy(
      apiAuth({
        accounts: { byApiKey: (key) => accounts.find((a) => a.api_key === key), byKid: () => undefined },
        apiKeys: { authenticate: () => undefined },
      }),
      { bodyLimit: 1024 },
    ),
    create: createSteps(
      requestValidation({ webhookTargetRefused: (url) => (url.includes('169.254.') ? 'a link-local address' : null) }),
      () => undefined,
      idempotency({ records: fakeIdempotencyRecords(), clock: fakeClock(), atomically: (work) => work() }),
    ),
  };
  const router = transactionRoutes({
    queries: {
      byId: (accountId, id) => rows.find((t) => t.id === id && t.account_id === accountId),
      page: (accountId) => ({ rows: rows.filter((t) => t.account_id === accountId), nextKey: null, previousKey: null }),
      refundsPage: () => ({ rows: [], nextKey: null, previousKey: null }),
    },
    transactions,
    pipeline,
    baseUrl: () => 'http://sandbox.test',
  });
  const app = new Hono();
  app.onError(onError);
  app.route('/v4', router);
  return { app, calls };
}

const as = (acc: Account, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${acc.api_key}`,
  'x-merchant-account-id': acc.id,
  'content-type': 'application/json',
  ...extra,
});
const payment = {
  amount: 1050,
  currency: 'USD',
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
  browser_info: {
    user_agent: 'test',
    accept_header: '*/*',
    language: 'en',
    color_depth: 24,
    screen_height: 800,
    screen_width: 1200,
    time_zone_offset: 0,
    java_enabled: false,
    javascript_enabled: true,
  },
};

describe('the transaction router with fake ports', () => {
  it("reads the caller's transaction through the query port; another account's is 404 with the envelope", async () => {
    const { app, calls } = mount();
    const own = await app.request(`/v4/transactions/${TX_A}`, { headers: as(A) });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ type: 'transaction', id: TX_A, merchant_account_id: A.id, status: 'SUCCEEDED' });
    const other = await app.request(`/v4/transactions/${TX_B}`, { headers: as(A) });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      type: 'error',
      code: 'not_found',
      status: 404,
      message: `Transaction ${TX_B} not found`,
      details: [],
    });
    expect(calls).toEqual([]);
  });

  it('refunds only a transaction of the caller: the service is not called for another account', async () => {
    const { app, calls } = mount();
    const refused = await app.request(`/v4/transactions/${TX_B}/refunds`, { method: 'POST', headers: as(A), body: '{}' });
    expect(refused.status).toBe(404);
    const refunded = await app.request(`/v4/transactions/${TX_A}/refunds`, {
      method: 'POST',
      headers: as(A),
      body: JSON.stringify({ amount: 500 }),
    });
    expect(refunded.status).toBe(201);
    expect(await refunded.json()).toMatchObject({ id: 'rf_1', transaction_id: TX_A, amount: 500 });
    expect(calls).toEqual([`refund ${TX_A}`]);
  });

  it('authenticates with the fake accounts port: 401 with a Bearer challenge, 403 for another account header', async () => {
    const { app } = mount();
    const anonymous = await app.request('/v4/transactions');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="payment-sandbox"');
    const crossed = await app.request('/v4/transactions', { headers: { ...as(A), 'x-merchant-account-id': B.id } });
    expect(crossed.status).toBe(403);
    const listed = await app.request('/v4/transactions', { headers: as(A) });
    expect(((await listed.json()) as { items: { id: string }[] }).items.map((t) => t.id)).toEqual([TX_A]);
  });

  it('creates through the service once per Idempotency-Key; a bad body or a refused webhook target never reaches it', async () => {
    const { app, calls } = mount();
    const bad = await app.request('/v4/transactions', { method: 'POST', headers: as(A), body: JSON.stringify({ amount: 'ten' }) });
    expect(bad.status).toBe(400);
    const refusedTarget = await app.request('/v4/transactions', {
      method: 'POST',
      headers: as(A),
      body: JSON.stringify({ ...payment, notification_url: 'http://169.254.169.254/hook' }),
    });
    expect(refusedTarget.status).toBe(400);
    expect(((await refusedTarget.json()) as { details: { pointer: string }[] }).details.map((d) => d.pointer)).toEqual([
      '/notification_url',
    ]);
    const keyed = as(A, { 'idempotency-key': 'once' });
    const first = await app.request('/v4/transactions', { method: 'POST', headers: keyed, body: JSON.stringify(payment) });
    const again = await app.request('/v4/transactions', { method: 'POST', headers: keyed, body: JSON.stringify(payment) });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
    expect(calls).toEqual(['create acc_a 1050']);
  });
});
