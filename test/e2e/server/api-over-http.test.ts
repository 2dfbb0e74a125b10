/**
 * The /v4 API over a real socket, as a merchant's backend would call it: JWT auth, an
 * idempotent create and its replay, pages, buyers, errors, a magic card of the default
 * scenario, and the control API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT, directPayment, headers, jwt } from '../../support/app.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false });
});
afterAll(() => server.stop());

const call = async (method: string, path: string, h: Record<string, string>, payload?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: h,
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

describe('the API over HTTP', () => {
  it('authenticates with an RS256 JWT and enforces its scopes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = jwt({ scopes: ['transactions.read'], iat: now, exp: now + 60 });
    const h = { authorization: `Bearer ${token}`, 'x-merchant-account-id': DIRECT.account_id, 'content-type': 'application/json' };
    expect((await call('GET', '/v4/transactions', h)).status).toBe(200);
    expect((await call('POST', '/v4/transactions', h, directPayment())).status).toBe(403);
    expect((await call('GET', '/v4/transactions', { ...h, authorization: 'Bearer sk_live_x' })).status).toBe(401);
  });

  it('replays an idempotent create, pages newest first with time-ordered ids, and lists buyers', async () => {
    const first = await call('POST', '/v4/transactions', headers(DIRECT, { 'idempotency-key': 'http-1' }), directPayment({ amount: 700 }));
    const again = await call('POST', '/v4/transactions', headers(DIRECT, { 'idempotency-key': 'http-1' }), directPayment({ amount: 700 }));
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await call('POST', '/v4/transactions', headers(), directPayment({ amount: 701 }));
    const page1 = await call('GET', '/v4/transactions?limit=1', headers());
    expect((page1.body.items as { amount: number }[])[0]!.amount).toBe(701);
    const page2 = await call('GET', `/v4/transactions?limit=1&cursor=${String(page1.body.next_cursor)}`, headers());
    expect((page2.body.items as { amount: number }[])[0]!.amount).toBe(700);
    const back = await call('GET', `/v4/transactions?limit=1&cursor=${String(page2.body.previous_cursor)}`, headers());
    expect(back.body.items).toEqual(page1.body.items);
    const [newer, older] = [page1, page2].map((page) => (page.body.items as { id: string }[])[0]!.id);
    expect(newer).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/); // UUID version 7
    expect(newer! > older!).toBe(true); // time-ordered: the later create has the greater id
    const buyers = await call('GET', '/buyers?limit=3', headers());
    expect((buyers.body.items as unknown[]).length).toBe(3);
  });

  it('answers the error envelope for bad JSON, unknown paths and wrong methods', async () => {
    const bad = await fetch(`${server.url}/v4/transactions`, { method: 'POST', headers: headers(), body: '{oops' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: 'error', code: 'bad_request' });
    expect((await call('GET', '/v4/nope', headers())).body).toMatchObject({ code: 'not_found', status: 404 });
    expect((await call('PATCH', '/v4/transactions', headers())).body).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('the magic card 4242 4242 4242 4242 succeeds at once', async () => {
    const res = await call(
      'POST',
      '/v4/transactions',
      headers(),
      directPayment({ payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/30', security_code: '123' } }),
    );
    expect(res.body.status).toBe('SUCCEEDED');
    const detail = await call('GET', `/_sandbox/transactions/${String(res.body.id)}`, {});
    expect(detail.body.scenario_rule).toBe('default/card 4242424242424242 succeeds');
  });
});
