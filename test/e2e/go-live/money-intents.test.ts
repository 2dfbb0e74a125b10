/**
 * The go-live report's money intents over real sockets: an answer the client never got (an
 * abort, a fault after execution) makes a retry under a new key a double payment or a double
 * refund, and the request log says which answer never arrived; an order retried after it
 * FAILED (a declined card, a customer who cancelled on the payment page) is no duplicate; six
 * customers with one basket under a rate limit, each waiting out Retry-After with its own key,
 * are not told they ignored it, while a client that repeats at once with the same key or none is.
 * A retry sent while the first create is still held is logged before it and paired all the same.
 */
import { describe, expect, it, vi } from 'vitest';
import { directPayment } from '../../support/app.js';
import { api, control, createAccount, merchantHeaders, type CreatedAccount } from '../../support/go-live-journeys.js';
import { perTest } from '../../support/servers.js';
import { until } from '../../support/until.js';

vi.setConfig({ testTimeout: 60_000 });
const per = perTest();

interface LoggedEntry {
  id: number;
  method: string;
  path: string;
  status: number;
  idempotency_key: string | null;
  answer_delivered: boolean | null;
}
interface Finding {
  code: string;
  severity: string;
  evidence: { count: number; request_ids?: number[]; transaction_ids?: string[] };
}

const report = async (url: string, account: CreatedAccount): Promise<Finding[]> =>
  (await control(url, 'GET', `/report?account_id=${account.account_id}`)).findings as Finding[];
const codes = async (url: string, account: CreatedAccount): Promise<string[]> => (await report(url, account)).map((f) => f.code);
const logged = async (url: string, account: CreatedAccount): Promise<LoggedEntry[]> =>
  (await control(url, 'GET', `/requests?account_id=${account.account_id}&limit=100`)).items as LoggedEntry[];
/** The spec's own body: no external_identifier. */
const specOrder = (): Record<string, unknown> => {
  const body = directPayment();
  delete body.external_identifier;
  return body;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an answer that never reached the client', () => {
  it('a refund whose answer the client never got, retried under a new key: two refunds, duplicate_refund_risk', async () => {
    const { url } = await per.serve();
    const shop = await createAccount(url, 'direct', 'refunds');
    const paid = await api(url, shop, 'POST', '/v4/transactions', directPayment({ external_identifier: 'order-r' }), {
      'idempotency-key': 'pay-r',
    });
    await control(url, 'POST', `/transactions/${String(paid.body.id)}/settle`);
    const refunds = `/v4/transactions/${String(paid.body.id)}/refunds`;
    // The refund runs, then its answer never comes: the client gives up after 300 ms.
    await expect(
      api(
        url,
        shop,
        'POST',
        refunds,
        { amount: 300 },
        { 'idempotency-key': 'refund-r1', 'x-sandbox-fault': 'timeout=3s-after' },
        AbortSignal.timeout(300),
      ),
    ).rejects.toThrow();
    // The sandbox logs the lost refund once it gives up on the connection; the client retries.
    await until('the lost refund logged', async () => (await logged(url, shop)).find((e) => e.idempotency_key === 'refund-r1'));
    const retry = await api(url, shop, 'POST', refunds, { amount: 300 }, { 'idempotency-key': 'refund-r2' });
    expect(retry.status).toBe(201);

    const list = (await api(url, shop, 'GET', refunds)).body.items as unknown[];
    expect(list).toHaveLength(2);
    const finding = (await report(url, shop)).find((f) => f.code === 'duplicate_refund_risk');
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 1, transaction_ids: [paid.body.id] } });
    const entries = await logged(url, shop);
    expect(entries.filter((e) => e.method === 'POST' && e.path === refunds).map((e) => [e.idempotency_key, e.answer_delivered])).toEqual([
      ['refund-r2', true],
      ['refund-r1', false],
    ]);
    expect(finding!.evidence.request_ids).toEqual(
      entries
        .filter((e) => e.method === 'POST' && e.path === refunds)
        .map((e) => e.id)
        .reverse(),
    );
  });

  it('a create of the spec body the client aborted, retried under a new key: duplicate_charge_risk; the log says which answer never arrived', async () => {
    const { url } = await per.serve();
    const shop = await createAccount(url, 'direct', 'aborts');
    // A slow server: the create runs at once, its answer leaves after 1.5 s; the client waits 300 ms.
    const slow = await fetch(`${url}/_sandbox/accounts/${shop.account_id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency: 1500 }),
    });
    expect(slow.status).toBe(200);
    await expect(
      api(url, shop, 'POST', '/v4/transactions', specOrder(), { 'idempotency-key': 'cart-1' }, AbortSignal.timeout(300)),
    ).rejects.toThrow();
    const lost = await until('the aborted create logged', async () =>
      (await logged(url, shop)).find((e) => e.idempotency_key === 'cart-1' && e.answer_delivered === false),
    );
    await fetch(`${url}/_sandbox/accounts/${shop.account_id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency: 0 }),
    });
    const retry = await api(url, shop, 'POST', '/v4/transactions', specOrder(), { 'idempotency-key': 'cart-2' });
    expect(retry.status).toBe(201);

    const entries = await logged(url, shop);
    expect(entries.filter((e) => e.method === 'POST').map((e) => [e.idempotency_key, e.status, e.answer_delivered])).toEqual([
      ['cart-2', 201, true],
      ['cart-1', 201, false],
    ]);
    const finding = (await report(url, shop)).find((f) => f.code === 'duplicate_charge_risk');
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 1, request_ids: [lost.id, entries[0]!.id] } });
    expect(finding!.evidence.transaction_ids).toContain(retry.body.id);
  });
});

describe('a retry sent while the first create is still held', () => {
  /** Sends a create held `timeout=5s-after` (it runs, then its answer is held); `giveUp` closes its connection. */
  const held = (url: string, shop: CreatedAccount, path: string, payload: unknown, key: string) => {
    const client = new AbortController();
    const sent = api(url, shop, 'POST', path, payload, { 'idempotency-key': key, 'x-sandbox-fault': 'timeout=5s-after' }, client.signal);
    const settled = sent.then(
      () => 'answered',
      () => 'aborted',
    );
    return { giveUp: () => client.abort(), settled };
  };

  it('a create aborted while held, retried at once under a new key and logged first: duplicate_charge_risk', async () => {
    const { url } = await per.serve();
    const shop = await createAccount(url, 'direct', 'held-charge');
    const first = held(url, shop, '/v4/transactions', specOrder(), 'cart-1');
    await sleep(300);
    // The client gives up and retries at once; its abort reaches the sandbox after the retry.
    const retry = await api(url, shop, 'POST', '/v4/transactions', specOrder(), { 'idempotency-key': 'cart-2' });
    expect(retry.status).toBe(201);
    first.giveUp();
    expect(await first.settled).toBe('aborted');
    await until('the held create logged', async () => (await logged(url, shop)).find((e) => e.idempotency_key === 'cart-1'));

    const entries = (await logged(url, shop)).filter((e) => e.method === 'POST');
    expect(entries.map((e) => [e.idempotency_key, e.answer_delivered])).toEqual([
      ['cart-1', false],
      ['cart-2', true],
    ]);
    const finding = (await report(url, shop)).find((f) => f.code === 'duplicate_charge_risk');
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 1, request_ids: [entries[0]!.id, entries[1]!.id] } });
  });

  it('a refund aborted while held, retried at once under a new key and logged first: duplicate_refund_risk', async () => {
    const { url } = await per.serve();
    const shop = await createAccount(url, 'direct', 'held-refund');
    const paid = await api(url, shop, 'POST', '/v4/transactions', directPayment({ external_identifier: 'order-h' }), {
      'idempotency-key': 'pay-h',
    });
    await control(url, 'POST', `/transactions/${String(paid.body.id)}/settle`);
    const refunds = `/v4/transactions/${String(paid.body.id)}/refunds`;
    const first = held(url, shop, refunds, { amount: 300 }, 'refund-h1');
    await sleep(300);
    const retry = await api(url, shop, 'POST', refunds, { amount: 300 }, { 'idempotency-key': 'refund-h2' });
    expect(retry.status).toBe(201);
    first.giveUp();
    expect(await first.settled).toBe('aborted');
    await until('the held refund logged', async () => (await logged(url, shop)).find((e) => e.idempotency_key === 'refund-h1'));

    const finding = (await report(url, shop)).find((f) => f.code === 'duplicate_refund_risk');
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 1, transaction_ids: [paid.body.id] } });
  });

  it('a careful client retries the held create with the same key: 409 while it runs, then the replay; no finding', async () => {
    const { url } = await per.serve();
    const shop = await createAccount(url, 'direct', 'held-careful');
    // A slow server: the create runs after 1.5 s while its key is claimed.
    const slow = await fetch(`${url}/_sandbox/accounts/${shop.account_id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency: 1500 }),
    });
    expect(slow.status).toBe(200);
    const send = (signal?: AbortSignal) => api(url, shop, 'POST', '/v4/transactions', specOrder(), { 'idempotency-key': 'cart-k' }, signal);
    await expect(send(AbortSignal.timeout(300))).rejects.toThrow();
    const concurrent = await send();
    expect(concurrent).toMatchObject({ status: 409, body: { code: 'concurrent_request' } });
    const replay = await send();
    expect(replay.status).toBe(201);

    const entries = (await logged(url, shop)).filter((e) => e.method === 'POST');
    expect(entries.map((e) => [e.status, e.answer_delivered])).toEqual([
      [201, true],
      [409, true],
      [201, false],
    ]);
    expect(await report(url, shop)).toEqual([]);
  });
});

describe('an order retried after it FAILED', () => {
  it('a declined card, then a new payment of the same order under a new key: no finding', async () => {
    const { url } = await per.serve();
    const shop = await createAccount(url, 'direct', 'declines');
    const order = { external_identifier: 'order-d', amount: 2500 };
    const declined = await api(
      url,
      shop,
      'POST',
      '/v4/transactions',
      directPayment({
        ...order,
        payment_method: { type: 'card', number: '4000000000000002', expiration_date: '12/30', security_code: '123' },
      }),
      { 'idempotency-key': 'order-d-1' },
    );
    expect(declined.body.status).toBe('FAILED');
    const paid = await api(url, shop, 'POST', '/v4/transactions', directPayment(order), { 'idempotency-key': 'order-d-2' });
    expect(paid.status).toBe(201);
    expect(await codes(url, shop)).not.toContain('duplicate_charge_risk');
  });

  it('a customer who cancelled on the payment page, then a new payment of the same order under a new key: no finding', async () => {
    const { url } = await per.serve();
    const shop = await createAccount(url, 'direct', 'cancels');
    const qr = {
      amount: 35050,
      currency: 'THB',
      external_identifier: 'order-q',
      payment_method: { type: 'qr', payment_channel_code: 'PROMPTPAY' },
      browser_info: { user_agent: 'e2e', language: 'th-TH' },
    };
    const first = await api(url, shop, 'POST', '/v4/transactions', qr, { 'idempotency-key': 'order-q-1' });
    expect(first.status).toBe(201);
    const page = await fetch(`${url}/pay/${String(first.body.id)}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(page.status).toBeLessThan(400);
    expect((await api(url, shop, 'GET', `/v4/transactions/${String(first.body.id)}`)).body.status).toBe('FAILED');
    const again = await api(url, shop, 'POST', '/v4/transactions', qr, { 'idempotency-key': 'order-q-2' });
    expect(again.status).toBe(201);
    expect(await codes(url, shop)).not.toContain('duplicate_charge_risk');
  });
});

describe('Retry-After under a rate limit', () => {
  it('six customers with one basket, each waiting out Retry-After with its own key: no ignored_retry_after; a careless client still gets it', async () => {
    const { url } = await per.serve({ rateLimit: 2 });
    const shop = await createAccount(url, 'direct', 'sale-day');
    const basket = JSON.stringify(specOrder());
    const customer = async (n: number): Promise<number> => {
      let limited = 0;
      for (;;) {
        const res = await fetch(`${url}/v4/transactions`, {
          method: 'POST',
          headers: merchantHeaders(shop, { 'idempotency-key': `customer-${n}` }),
          body: basket,
        });
        if (res.status !== 429) {
          expect(res.status).toBe(201);
          return limited;
        }
        limited += 1;
        await sleep(Number(res.headers.get('retry-after')) * 1000 + 100);
      }
    };
    const waits = await Promise.all([1, 2, 3, 4, 5, 6].map(customer));
    expect(waits.some((n) => n > 0)).toBe(true); // the limit did refuse some of them
    expect(await codes(url, shop)).not.toContain('ignored_retry_after');
    expect(await codes(url, shop)).not.toContain('duplicate_charge_risk');

    // A careless client: refused, then the same create again at once, with the same key, then without any.
    await sleep(1100);
    const send = (extra: Record<string, string>) =>
      fetch(`${url}/v4/transactions`, { method: 'POST', headers: merchantHeaders(shop, extra), body: basket });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send({ 'idempotency-key': 'careless' })).status);
    for (let i = 0; i < 4; i++) statuses.push((await send({})).status);
    expect(statuses).toContain(429);
    const finding = (await report(url, shop)).find((f) => f.code === 'ignored_retry_after');
    expect(finding?.evidence.count).toBeGreaterThanOrEqual(2);
    const entries = await logged(url, shop);
    const keys = new Set(finding!.evidence.request_ids!.map((id) => entries.find((e) => e.id === id)?.idempotency_key));
    expect(keys).toEqual(new Set(['careless', null]));
  });
});
