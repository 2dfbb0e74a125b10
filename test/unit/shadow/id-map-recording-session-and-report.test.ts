/**
 * The shadow feature's pure parts: the id map and route templates, the recording's redaction,
 * and the fixtures a recording becomes.
 */
import { describe, expect, it } from 'vitest';
import { IdMap, routeOf } from '../../../src/features/shadow/id-map.js';
import { recordingLine } from '../../../src/features/shadow/recording.js';
import { fixturesFromRecording, parseRecording, RecordingError } from '../../../src/features/shadow/from-recording.js';
import type { RecordingLine } from '../../../src/features/shadow/recording.js';
import { ShadowSession, type ShadowAnswer, type ShadowRequest } from '../../../src/features/shadow/shadow.js';
import { formatShadowJunit, formatShadowText } from '../../../src/features/shadow/format.js';
import type { ShadowReport } from '../../../src/features/shadow/shadow-report.js';
import { junitProblems } from '../../support/junit-schema.js';

describe('the id map', () => {
  it('pairs ids and cursors of two answers, not a page of records by position, and translates paths, queries and bodies', () => {
    const ids = new IdMap();
    ids.learn(
      { id: 'up-1', buyer: { buyer_id: 'up-b' }, status: 'SUCCEEDED' },
      { id: 'sb-1', buyer: { buyer_id: 'sb-b' }, status: 'SUCCEEDED' },
    );
    ids.learn({ items: [{ id: 'up-9' }], next_cursor: 'up-c' }, { items: [{ id: 'sb-9' }], next_cursor: 'sb-c' });
    expect(ids.sandboxId('up-9')).toBeUndefined();
    expect(ids.translatePath('/v4/transactions/up-1/refunds')).toBe('/v4/transactions/sb-1/refunds');
    expect(ids.translatePath('/v4/transactions?limit=2&cursor=up-c')).toBe('/v4/transactions?limit=2&cursor=sb-c');
    expect(ids.translatePath('/v4/transactions?limit=2')).toBe('/v4/transactions?limit=2');
    expect(ids.translateBody({ buyer_id: 'up-b', note: ['up-1', 'other'] })).toEqual({ buyer_id: 'sb-b', note: ['sb-1', 'other'] });
    expect(ids.upstreamId('sb-1')).toBe('up-1');
  });

  it('names a route by its template: each id segment after its collection', () => {
    const ids = new IdMap();
    ids.pair('tx_a', 'tx_b');
    expect(routeOf('post', '/v4/transactions/tx_a/refunds?x=1', ids)).toBe('POST /v4/transactions/{transaction_id}/refunds');
    expect(routeOf('GET', '/v4/transactions/00000000-0000-4000-8000-000000000000', ids)).toBe('GET /v4/transactions/{transaction_id}');
    expect(routeOf('GET', '/v4/transactions', ids)).toBe('GET /v4/transactions');
  });
});

describe('the recording', () => {
  it('redacts card data and keys as the request log does', () => {
    const line = recordingLine({
      exchange: 1,
      at: '2026-01-01T00:00:00.000Z',
      request: {
        method: 'POST',
        path: '/v4/transactions?api_key=sk_test_abc',
        headers: { authorization: 'Bearer sk_test_secret_key', 'x-merchant-account-id': 'acc_1' },
        body: JSON.stringify({ amount: 100, payment_method: { type: 'card', number: '4242424242424242', security_code: '123' } }),
      },
      response: { status: 201, headers: {}, body: { id: 'tx_1', note: 'card 4242 4242 4242 4242' } },
    });
    expect(line).not.toMatch(/4242424242424242|4242 4242 4242 4242|sk_test_secret_key|sk_test_abc|security_code/);
    const parsed = JSON.parse(line) as RecordingLine;
    expect(parsed.request.headers.authorization).toBe('Bearer [redacted]');
    expect(parsed.request.headers['x-merchant-account-id']).toBe('acc_1');
    expect(parsed.request.body).toEqual({ amount: 100, payment_method: { type: 'card', number: '•••• 4242' } });
  });
});

const line = (n: number, method: string, path: string, body: unknown, status: number, answer: unknown): string =>
  JSON.stringify({
    exchange: n,
    at: '2026-01-01T00:00:00.000Z',
    request: { method, path, headers: {}, body },
    response: { status, headers: {}, body: answer },
  });

describe('fixtures from a recording', () => {
  const card = { type: 'card', number: '•••• 4242', expiration_date: '12/30' };
  it('recreates each payment once, with its last outcome, and each refund of it', () => {
    const text = [
      line(1, 'POST', '/v4/transactions', { amount: 1200, currency: 'USD', payment_method: card }, 201, {
        id: 'a',
        status: 'PENDING',
        amount: 1200,
      }),
      line(2, 'POST', '/v4/transactions', { amount: 1200, currency: 'USD', payment_method: card }, 201, {
        id: 'a',
        status: 'PENDING',
        amount: 1200,
      }),
      line(3, 'POST', '/v4/transactions', { amount: 990, currency: 'USD' }, 201, { id: 'b', status: 'FAILED', amount: 990 }),
      line(4, 'POST', '/v4/transactions', { amount: 50, currency: 'USD' }, 201, { id: 'c', status: 'PENDING', amount: 50 }),
      line(5, 'POST', '/v4/transactions', { amount: 'x' }, 400, { type: 'error', code: 'bad_request' }),
      line(6, 'GET', '/v4/transactions?limit=5', undefined, 200, { items: [{ id: 'a', status: 'SUCCEEDED' }], next_cursor: null }),
      line(7, 'POST', '/v4/transactions/a/refunds', {}, 201, { id: 'r1', amount: 300, status: 'SUCCESS' }),
      '',
    ].join('\n');
    const document = fixturesFromRecording(parseRecording(text));
    expect(document.fixtures).toEqual([
      {
        name: 'payment_1',
        account: 'direct',
        create: 'transaction',
        then: 'settle',
        body: { amount: 1200, currency: 'USD', payment_method: { ...card, number: '4111111111111111', security_code: '123' } },
      },
      { name: 'payment_2', account: 'direct', create: 'transaction', then: 'fail', body: { amount: 990, currency: 'USD' } },
      { name: 'payment_3', account: 'direct', create: 'transaction', body: { amount: 50, currency: 'USD' } },
      { name: 'payment_1_refund_1', account: 'direct', create: 'refund', body: { amount: 300, transaction_id: '${payment_1.id}' } },
    ]);
  });

  it('uses the checkout account when the upstream answered a payment_url, and refuses a line that is not an exchange', () => {
    const checkout = fixturesFromRecording(
      parseRecording(line(1, 'POST', '/v4/transactions', { amount: 10 }, 201, { id: 'a', status: 'PENDING', payment_url: 'https://pay' })),
    );
    expect(checkout.fixtures[0]!.account).toBe('checkout');
    expect(() => parseRecording('{"exchange":1}\n')).toThrow(RecordingError);
    expect(() => parseRecording('not json')).toThrow('line 1 is not JSON');
  });
});

describe('the session', () => {
  const UP = { apiKey: 'sk_test_upstream', accountId: 'acc_up' };
  const ACCOUNTS = {
    direct: { apiKey: 'sk_test_direct', accountId: 'acc_direct' },
    checkout: { apiKey: 'sk_test_checkout', accountId: 'acc_checkout' },
  };
  function session() {
    const sent: ShadowRequest[] = [];
    const answers: ShadowAnswer[] = [];
    const shadow = new ShadowSession({
      upstream: 'http://upstream/v4',
      ...UP,
      sandboxWebhookUrl: 'http://proxy/_sandbox/shadow/webhooks',
      sandbox: {
        account: (mode) => ACCOUNTS[mode],
        send: (request) => {
          sent.push(request);
          return Promise.resolve(answers.shift() ?? { status: 200, headers: {}, body: {} });
        },
      },
    });
    return { shadow, sent, answers };
  }
  const headers = { authorization: `Bearer ${UP.apiKey}`, 'x-merchant-account-id': UP.accountId, 'idempotency-key': 'k1' };
  const answer = (status: number, body: unknown): Promise<ShadowAnswer> => Promise.resolve({ status, headers: {}, body });

  it("signs the app's requests as the sandbox account of the upstream's mode, with the ids and notification_url of the sandbox", async () => {
    const { shadow, sent, answers } = session();
    answers.push({ status: 201, headers: {}, body: { id: 'sb-1', payment_url: 'http://sandbox/pay/sb-1' } });
    const body = JSON.stringify({ amount: 10, notification_url: 'https://shop.example/hooks' });
    shadow.observe(
      { method: 'POST', path: '/v4/transactions', headers, body },
      answer(201, { id: 'up-1', payment_url: 'https://pay/up-1' }),
    );
    shadow.observe({ method: 'GET', path: '/v4/transactions/up-1', headers, body: undefined }, answer(200, { id: 'up-1' }));
    shadow.observe(
      { method: 'GET', path: '/v4/transactions', headers: { ...headers, authorization: 'Bearer sk_test_other' }, body: undefined },
      answer(401, {}),
    );
    await shadow.idle();
    expect(shadow.accountMode).toBe('checkout');
    expect(sent[0]!.headers).toMatchObject({
      authorization: 'Bearer sk_test_checkout',
      'x-merchant-account-id': 'acc_checkout',
      'idempotency-key': 'k1',
    });
    expect(JSON.parse(sent[0]!.body!)).toEqual({ amount: 10, notification_url: 'http://proxy/_sandbox/shadow/webhooks' });
    expect(sent[1]!.path).toBe('/v4/transactions/sb-1');
    // credentials other than the upstream's are sent as they are: the sandbox refuses them too
    expect(sent[2]!.headers.authorization).toBe('Bearer sk_test_other');
    expect(shadow.report().summary).toMatchObject({ exchanges: 3, compared: 3 });
  });

  it('uses the direct account when the first created payment has no payment_url', async () => {
    const { shadow, sent } = session();
    shadow.observe({ method: 'POST', path: '/v4/transactions', headers, body: '{}' }, answer(201, { id: 'up-1', payment_url: null }));
    await shadow.idle();
    expect(shadow.accountMode).toBe('direct');
    expect(sent[0]!.headers.authorization).toBe('Bearer sk_test_direct');
  });
});

describe('the report formats', () => {
  const difference = {
    kind: 'type' as const,
    route: 'GET /v4/transactions/{transaction_id}',
    request: 'GET /v4/transactions/tx_1',
    exchange: 3,
    pointer: '/body/refunded_amount',
    upstream: 'string',
    sandbox: 'integer',
  };
  const report: ShadowReport = {
    upstream: 'https://test-api.example.com/v4',
    generated_at: '2026-01-01T00:00:00.000Z',
    summary: { exchanges: 4, compared: 4, webhooks_compared: 1, differences: 1 },
    by_kind: { type: [difference] },
    differences: [difference],
    errors: [],
  };

  it('text: each difference under its kind with its route, pointer and both values, and the count compared', () => {
    const text = formatShadowText(report);
    expect(text).toContain('4 of 4 exchanges compared, 1 webhooks compared');
    expect(text).toContain(
      'type (1):\n  GET /v4/transactions/{transaction_id}  /body/refunded_amount: upstream "string", sandbox "integer"',
    );
    expect(text.trim().split('\n').at(-1)).toBe('shadow: 1 difference');
  });

  it('junit: a valid document with one failed case per kind that differs', () => {
    const xml = formatShadowJunit(report, 'ci');
    expect(junitProblems(xml)).toEqual([]);
    expect(xml).toContain('<testcase name="type" classname="shadow" time="0.000">');
    expect(xml).toContain('failures="1"');
  });
});
