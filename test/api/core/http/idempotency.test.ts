/** The spec's seven idempotency rules (plus the documented scoping and replay header). */
import { describe, expect, it } from 'vitest';
import { CHECKOUT, body, directPayment, headers, testApp } from '../../../support/app.js';

type App = ReturnType<typeof testApp>['app'];
const create = (app: App, key: string | undefined, payload: unknown = directPayment(), h = headers()) =>
  app.request('/v4/transactions', {
    method: 'POST',
    headers: key === undefined ? h : { ...h, 'Idempotency-Key': key },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
const count = ({ db }: Pick<ReturnType<typeof testApp>, 'db'>): number =>
  (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;

describe('Idempotency-Key', () => {
  it('rule 2: replays the first status and body with Idempotent-Replayed: true, creating one record', async () => {
    const { app, db } = testApp();
    const first = await create(app, 'key-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    const second = await create(app, 'key-1');
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.text()).toBe(firstBody);
    expect(count({ db })).toBe(1);
  });

  it('"the same request" ignores JSON key order', async () => {
    const { app, db } = testApp();
    await create(app, 'k', { amount: 1, currency: 'USD', ...directPayment({ amount: 1 }) });
    const reordered = Object.fromEntries(Object.entries(directPayment({ amount: 1 })).reverse());
    const res = await create(app, 'k', reordered);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(count({ db })).toBe(1);
  });

  it('rule 2: a failed first response (after execution started) is stored and replayed too', async () => {
    const { app, features } = testApp();
    const tx = await body(await create(app, undefined));
    await features.sandbox.service.advanceClock(0.001);
    const refund = (amount: number) =>
      app.request(`/v4/transactions/${String(tx.id)}/refunds`, {
        method: 'POST',
        headers: { ...headers(), 'idempotency-key': 'r-1' },
        body: JSON.stringify({ amount }),
      });
    const first = await refund(1);
    expect(first.status).toBe(400); // PENDING: not refundable
    features.transactions.service.resolve(String(tx.id), 'SUCCEEDED');
    const again = await refund(1);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
  });

  it('rule 4: a request that fails validation stores nothing and can be retried with the same key', async () => {
    const { app } = testApp();
    const bad = await create(app, 'k-valid', { amount: -1, currency: 'USD' });
    expect(bad.status).toBe(400);
    const good = await create(app, 'k-valid');
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rule 5: 409 concurrent_request while the first request is still processing (--latency)', async () => {
    const { app, db } = testApp({ latency: { p50Ms: 300, p99Ms: 300 } });
    const first = create(app, 'slow');
    await new Promise((r) => setTimeout(r, 50));
    const second = await create(app, 'slow');
    expect(second.status).toBe(409);
    expect(await body(second)).toMatchObject({ type: 'error', code: 'concurrent_request', status: 409 });
    expect((await first).status).toBe(201);
    const third = await create(app, 'slow');
    expect(third.status).toBe(201);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(count({ db })).toBe(1);
  });

  it('without --latency a create runs without yielding, so its key is stored once, with the answer (no claim, no completion)', async () => {
    const { app, httpRecords, db } = testApp();
    const writes: string[] = [];
    const repo = httpRecords.idempotency;
    for (const name of ['claim', 'complete', 'release', 'record'] as const) {
      const original = repo[name] as (...args: unknown[]) => void;
      (repo as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        writes.push(name);
        original(...args);
      };
    }
    expect((await create(app, 'one-write')).status).toBe(201);
    expect((await create(app, 'one-write-failed', directPayment({ currency: 'XXX' }))).status).toBe(400);
    expect(writes).toEqual(['record']); // a validation failure stores nothing (rule 4)
    expect(db.prepare("SELECT state, response_status FROM idempotency_keys WHERE key = 'one-write'").get()).toEqual({
      state: 'done',
      response_status: 201,
    });
    const replay = await create(app, 'one-write');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(count({ db })).toBe(1);
  });

  it('a create and the record of its key commit together: when the record cannot be written, no transaction is kept, and the retry creates one', async () => {
    const { app, httpRecords, db } = testApp();
    const repo = httpRecords.idempotency;
    const original = repo.record;
    repo.record = () => {
      throw new Error('disk full'); // e.g. SQLITE_FULL on a --db file
    };
    const failed = await create(app, 'together');
    expect(failed.status).toBe(500);
    expect(count({ db })).toBe(0); // without the key, a kept transaction would be created again by the retry
    repo.record = original;
    const retry = await create(app, 'together');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(count({ db })).toBe(1);
    expect((await create(app, 'together')).headers.get('idempotent-replayed')).toBe('true');
  });

  it('rule 6: the same key with a different body is 400, every time', async () => {
    const { app, db } = testApp();
    await create(app, 'k2', directPayment({ amount: 100 }));
    for (let i = 0; i < 2; i++) {
      const res = await create(app, 'k2', directPayment({ amount: 200 }));
      expect(res.status).toBe(400);
      const err = await body(res);
      expect(err).toMatchObject({ code: 'bad_request' });
      expect(err.message).toMatch(/already in use/);
    }
    expect(count({ db })).toBe(1);
  });

  it('the same key on another path is a different request (400)', async () => {
    const { app } = testApp();
    const tx = await body(await create(app, 'shared'));
    const res = await app.request(`/v4/transactions/${String(tx.id)}/refunds`, {
      method: 'POST',
      headers: { ...headers(), 'Idempotency-Key': 'shared' },
      body: JSON.stringify(directPayment()),
    });
    expect(res.status).toBe(400);
    expect((await body(res)).message).toMatch(/already in use/);
  });

  it('rule 1: keys of up to 255 characters; longer is 400 at the header', async () => {
    const { app } = testApp();
    expect((await create(app, 'x'.repeat(255))).status).toBe(201);
    const res = await create(app, 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ details: [{ location: 'header', pointer: '/idempotency-key' }] });
  });

  it('rule 1 counts characters, not bytes: 255 "é" sent as UTF-8 (510 bytes) is accepted, 256 are refused', async () => {
    const { app } = testApp();
    // A header reaches the app as its bytes, one character per byte, as node's HTTP server gives it.
    const asSent = (key: string): string => Buffer.from(key, 'utf8').toString('latin1');
    expect((await create(app, asSent('é'.repeat(128)))).status).toBe(201);
    expect((await create(app, asSent('é'.repeat(255)))).status).toBe(201);
    expect((await create(app, asSent('😀'.repeat(255)))).status).toBe(201);
    const res = await create(app, asSent('é'.repeat(256)));
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({
      message: 'Idempotency-Key must be 1 to 255 characters',
      details: [{ location: 'header', pointer: '/idempotency-key', message: 'Must be 1 to 255 characters' }],
    });
  });

  it('rule 3: a key is valid for 24 hours on the sandbox clock, then free for another request', async () => {
    const { app, features } = testApp();
    await create(app, 'day', directPayment({ amount: 100 }));
    await features.sandbox.service.advanceClock(23 * 3600);
    expect((await create(app, 'day', directPayment({ amount: 100 }))).headers.get('idempotent-replayed')).toBe('true');
    expect((await create(app, 'day', directPayment({ amount: 200 }))).status).toBe(400);
    await features.sandbox.service.advanceClock(3600);
    const reused = await create(app, 'day', directPayment({ amount: 200 }));
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect((await body(reused)).amount).toBe(200);
  });

  it('keys are scoped to the merchant account', async () => {
    const { app, db } = testApp();
    await create(app, 'same-key');
    const res = await create(app, 'same-key', { amount: 100, currency: 'USD', return_url: 'https://shop.example/ok' }, headers(CHECKOUT));
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(count({ db })).toBe(2);
  });
});
