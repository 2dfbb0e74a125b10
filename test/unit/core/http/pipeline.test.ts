/**
 * The /v4 pipeline as one app builds it (`core/http/pipeline.ts`), over fakes of its ports: the
 * request log publishes each request as one typed event (`LoggedRequest`), read from the route
 * that matched and from what the steps noted, never from the request's context; and a request
 * refused at any step is still logged and heard.
 */
import { z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { apiAuth } from '../../../../src/core/http/auth.js';
import type { ApiEnv } from '../../../../src/core/http/env.js';
import { errorHandler } from '../../../../src/core/http/errors.js';
import { exchangeOf } from '../../../../src/core/http/exchange.js';
import { apiFaults } from '../../../../src/core/http/faults.js';
import { idempotency } from '../../../../src/core/http/idempotency.js';
import { loadRehearsal } from '../../../../src/core/http/load-rehearsal.js';
import { apiPipeline } from '../../../../src/core/http/pipeline.js';
import { requestLog, type LoggedRequest } from '../../../../src/core/http/request-log.js';
import { requestValidation } from '../../../../src/core/http/validation.js';
import { accountEntity, fakeClock, fakeIdempotencyRecords } from '../../../support/fakes.js';

const ACCOUNT = accountEntity('acc_1');
const onError = errorHandler({ error: () => undefined });

function setup(listens: (type: string) => boolean = () => true) {
  const heard: LoggedRequest[] = [];
  const emitted: string[] = [];
  const clock = fakeClock();
  const log = requestLog({
    requestLog: { insert: () => heard.length + 1, insertNow: () => heard.length + 1, markUndelivered: () => {} },
    clock,
    emit: (type) => void emitted.push(type),
    listens,
  });
  log.subscribe({ logged: (request) => void heard.push(request) });
  const pipeline = apiPipeline({
    clock,
    log,
    rehearsal: loadRehearsal({
      settingsOf: () => ({ known: false, rateLimit: 0, latency: { p50Ms: 0, p99Ms: 0 } }),
      authenticatesAs: () => false,
    }),
    faults: apiFaults({ scenarios: { apiFaultFor: () => null } }),
    auth: apiAuth({
      accounts: { byApiKey: (key) => (key === ACCOUNT.api_key ? ACCOUNT : undefined), byKid: () => undefined },
      apiKeys: { authenticate: () => undefined },
    }),
    validRequest: requestValidation({ webhookTargetRefused: () => null }),
    idempotent: idempotency({ records: fakeIdempotencyRecords(), clock, atomically: (work) => work() }),
    bodyLimit: 1024,
    onError,
  });
  const app = new Hono<ApiEnv>();
  app.onError(onError);
  app.use('/v4/*', pipeline.front);
  app.post('/v4/transactions/:transaction_id/refunds', pipeline.secured('refunds.write'), (c) =>
    pipeline.create(c, { body: z.object({ amount: z.number() }) }, 201, (input) => ({ id: 'rf_1', amount: input.amount })),
  );
  const refund = (extra: Record<string, string> = {}, body = '{"amount":5}') =>
    app.request('/v4/transactions/tx_9/refunds', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ACCOUNT.api_key}`,
        'x-merchant-account-id': ACCOUNT.id,
        'content-type': 'application/json',
        ...extra,
      },
      body,
    });
  return { heard, emitted, refund, app };
}

describe('the request log event', () => {
  it('names the matched route and its parameters, the created record, and a fault that lost the answer', async () => {
    const { heard, refund } = setup();
    expect((await refund({ 'idempotency-key': 'k1', 'x-sandbox-fault': '503-after' })).status).toBe(503);
    expect(heard[0]).toMatchObject({
      method: 'POST',
      route: '/v4/transactions/:transaction_id/refunds',
      params: { transaction_id: 'tx_9' },
      path: '/v4/transactions/tx_9/refunds',
      status: 503,
      executedStatus: 201,
      replayed: false,
      created: { id: 'rf_1', amount: 5 },
      fault: true,
      answerDelivered: false,
      body: { amount: 5 },
    });
    expect(heard[0]!.account?.id).toBe(ACCOUNT.id);
    expect(heard[0]!.cardData()).toBe(false);

    expect((await refund({ 'idempotency-key': 'k1' })).status).toBe(201);
    expect(heard[1]).toMatchObject({
      status: 201,
      executedStatus: 201,
      replayed: true,
      created: null,
      fault: false,
      answerDelivered: true,
    });
    // The replay's fingerprint is the first request's: same method, path and body.
    expect(heard[1]!.fingerprint()).toBe(heard[0]!.fingerprint());
  });

  it('is published for a request refused before its operation ran, with the body text it could not parse', async () => {
    const { heard, refund, app } = setup();
    expect((await refund({}, '{"amount":')).status).toBe(400);
    expect(heard[0]).toMatchObject({ status: 400, created: null, body: undefined, bodyText: '{"amount":' });
    expect((await refund({ 'x-sandbox-fault': 'nonsense' })).status).toBe(400);
    expect(heard[1]).toMatchObject({ status: 400, fault: false, account: undefined });
    expect((await app.request('/v4/nowhere')).status).toBe(404);
    expect(heard[2]).toMatchObject({ route: null, status: 404, path: '/v4/nowhere' });
  });

  it('goes to the change feed only while someone listens to request.logged; its subscribers hear it either way', async () => {
    const quiet = setup(() => false);
    await quiet.refund();
    expect([quiet.emitted, quiet.heard.length]).toEqual([[], 1]);
    const listened = setup((type) => type === 'request.logged');
    await listened.refund();
    expect(listened.emitted).toEqual(['request.logged']);
  });
});

describe('a create through the pipeline', () => {
  it('is answered without a promise of its own, keyed or not, unless it waits (a latency)', async () => {
    const clock = fakeClock();
    const idempotent = idempotency({ records: fakeIdempotencyRecords(), clock, atomically: (work) => work() });
    const promised: boolean[] = [];
    const app = new Hono<ApiEnv>();
    app.post('/v4/transactions', (c) => {
      c.set('account', ACCOUNT);
      if (c.req.header('x-latency') !== undefined) exchangeOf(c).latency = Promise.resolve();
      const answer = idempotent(c, 201, () => ({ id: 'tx_1' }));
      promised.push(answer instanceof Promise);
      return answer;
    });
    const post = (headers: Record<string, string>) => app.request('/v4/transactions', { method: 'POST', headers });
    expect((await post({ 'idempotency-key': 'k1' })).status).toBe(201);
    expect((await post({})).status).toBe(201);
    expect((await post({ 'idempotency-key': 'k2', 'x-latency': '1' })).status).toBe(201);
    expect(promised).toEqual([false, false, true]);
  });
});
