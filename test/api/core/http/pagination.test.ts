/** Cursor pages: limits, walks forward and back with inserts in between, bad cursors, buyers. */
import { describe, expect, it } from 'vitest';
import { DIRECT, body, directPayment, headers, testApp, type PageBody } from '../../../support/app.js';

type PageOf<T> = PageBody<T>;
type Tx = { id: string; amount: number };

async function seed(app: ReturnType<typeof testApp>['app'], amounts: number[]): Promise<void> {
  for (const amount of amounts) {
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ amount })),
    });
    expect(res.status).toBe(201);
  }
}

const page = async (app: ReturnType<typeof testApp>['app'], query: string) => {
  const res = await app.request(`/v4/transactions?${query}`, { headers: headers() });
  expect(res.status).toBe(200);
  return body<PageOf<Tx>>(res);
};

describe('cursor pagination', () => {
  it('defaults to 20, newest first, nulls at the ends', async () => {
    const { app } = testApp();
    await seed(
      app,
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    const first = await page(app, '');
    expect(first.limit).toBe(20);
    expect(first.items.map((t) => t.amount)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    expect(first.previous_cursor).toBeNull();
    expect(first.next_cursor).toEqual(expect.any(String));
    const last = await page(app, `cursor=${first.next_cursor}`);
    expect(last.items.map((t) => t.amount)).toEqual([5, 4, 3, 2, 1]);
    expect(last.next_cursor).toBeNull();
    expect(last.previous_cursor).toEqual(expect.any(String));
  });

  it('walks forward and back over 4 pages, stable while records are inserted', async () => {
    const { app } = testApp();
    await seed(
      app,
      Array.from({ length: 10 }, (_, i) => i + 1),
    ); // amounts 1..10, newest = 10
    const p1 = await page(app, 'limit=3');
    expect(p1.items.map((t) => t.amount)).toEqual([10, 9, 8]);
    await seed(app, [101, 102]); // inserted while walking
    const p2 = await page(app, `limit=3&cursor=${p1.next_cursor}`);
    expect(p2.items.map((t) => t.amount)).toEqual([7, 6, 5]);
    const p3 = await page(app, `limit=3&cursor=${p2.next_cursor}`);
    expect(p3.items.map((t) => t.amount)).toEqual([4, 3, 2]);
    await seed(app, [103]);
    const p4 = await page(app, `limit=3&cursor=${p3.next_cursor}`);
    expect(p4.items.map((t) => t.amount)).toEqual([1]);
    expect(p4.next_cursor).toBeNull();
    // And back: each previous page is exactly the page before.
    const b3 = await page(app, `limit=3&cursor=${p4.previous_cursor}`);
    expect(b3.items).toEqual(p3.items);
    const b2 = await page(app, `limit=3&cursor=${b3.previous_cursor}`);
    expect(b2.items).toEqual(p2.items);
    const b1 = await page(app, `limit=3&cursor=${b2.previous_cursor}`);
    expect(b1.items).toEqual(p1.items);
    // Newer records exist now, so the first page has a previous page of the inserts.
    expect(b1.previous_cursor).not.toBeNull();
    const newer = await page(app, `limit=3&cursor=${b1.previous_cursor}`);
    expect(newer.items.map((t) => t.amount)).toEqual([103, 102, 101]);
    expect(newer.previous_cursor).toBeNull();
  });

  it.each([
    ['limit=0', '/limit'],
    ['limit=101', '/limit'],
    ['limit=abc', '/limit'],
    ['limit=2.5', '/limit'],
    ['cursor=not-a-cursor', '/cursor'],
    [`cursor=${Buffer.from('{"d":"x","k":1}').toString('base64url')}`, '/cursor'],
  ])('400 with a query detail for %s', async (query, pointer) => {
    const { app } = testApp();
    const res = await app.request(`/v4/transactions?${query}`, { headers: headers() });
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ code: 'bad_request', details: [{ location: 'query', pointer }] });
  });

  it('finds a deep page by an index range, not by scanning (keyset, no OFFSET)', () => {
    const { db } = testApp();
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT * FROM transactions WHERE account_id = 'a' AND seq < 5000 ORDER BY seq DESC LIMIT 20")
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/SEARCH transactions USING (INDEX transactions_account|INTEGER PRIMARY KEY)/);
  });
});

describe('buyers', () => {
  type Buyer = {
    id: string;
    type: string;
    display_name: string;
    external_identifier: string | null;
    created_at: string;
    updated_at: string;
    merchant_account_id: string;
  };

  it('lists faker buyers with the fields of the pagination sample, on /v4/buyers and /buyers', async () => {
    const { app } = testApp();
    const v4 = await body<PageOf<Buyer>>(await app.request('/v4/buyers?limit=5', { headers: headers() }));
    const bare = await body<PageOf<Buyer>>(await app.request('/buyers?limit=5', { headers: headers() }));
    expect(bare).toEqual(v4);
    expect(v4.items).toHaveLength(5);
    const b = v4.items[0]!;
    expect(Object.keys(b).sort()).toEqual([
      'created_at',
      'display_name',
      'external_identifier',
      'id',
      'merchant_account_id',
      'type',
      'updated_at',
    ]);
    expect(b.type).toBe('buyer');
    expect(b.merchant_account_id).toBe(DIRECT.account_id);
    expect(b.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const times = v4.items.map((x) => x.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('is deterministic under --seed and differs with another seed', async () => {
    const names = async (seed: number) =>
      (await body<PageOf<Buyer>>(await testApp({ seed }).app.request('/v4/buyers?limit=10', { headers: headers() }))).items.map(
        (b) => `${b.id} ${b.display_name}`,
      );
    expect(await names(7)).toEqual(await names(7));
    expect(await names(7)).not.toEqual(await names(8));
  });

  it('pages through every buyer exactly once', async () => {
    const { app } = testApp();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p: PageOf<Buyer> = await body<PageOf<Buyer>>(
        await app.request(`/v4/buyers?limit=7${cursor ? `&cursor=${cursor}` : ''}`, { headers: headers() }),
      );
      seen.push(...p.items.map((b) => b.id));
      cursor = p.next_cursor;
    } while (cursor);
    expect(seen.length).toBe(45);
    expect(new Set(seen).size).toBe(45);
  });

  it('needs the buyers.read scope', async () => {
    const { app } = testApp();
    const { jwt } = await import('../../../support/app.js');
    const now = Math.floor(Date.now() / 1000);
    const token = jwt({ scopes: ['transactions.read'], iat: now, exp: now + 60 });
    const res = await app.request('/v4/buyers', {
      headers: { authorization: `Bearer ${token}`, 'x-merchant-account-id': DIRECT.account_id },
    });
    expect(res.status).toBe(403);
  });
});
