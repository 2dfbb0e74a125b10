/**
 * Edge cases the spec leaves open, answered without a socket: trailing slashes, `X-Forwarded-For`
 * lists as proxies write them, a JWT without `scopes` (403) or issued in the future (401),
 * `WWW-Authenticate` on every 401, the buyer filters of the borrowed API, cursors bound to
 * their list and account, and the refunds of a transaction as a page envelope.
 */
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../../../src/features/subscriptions/forwarded-for.js';
import { CHECKOUT, DIRECT, bearer, body, directPayment, headers, jwt, nowSeconds, testApp, type PageBody } from '../../../support/app.js';
import { directSubscription, postSubscription } from '../../../support/subscriptions.js';

const now = nowSeconds;
interface BuyerItem {
  id: string;
  display_name: string | null;
  external_identifier: string | null;
}
interface ErrorBody {
  code: string;
  status: number;
  message: string;
  details: { type: string; pointer: string; location: string; message: string }[];
}
describe('trailing slashes', () => {
  it('a path with a trailing slash is answered like the path without it', async () => {
    const { app } = testApp();
    const plain = await app.request('/v4/transactions', { headers: headers() });
    const slashed = await app.request('/v4/transactions/', { headers: headers() });
    expect(slashed.status).toBe(200);
    expect(await slashed.json()).toEqual(await plain.json());
    const created = await app.request('/v4/transactions/', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
    expect(created.status).toBe(201);
    const { id } = await body<{ id: string }>(created);
    expect((await app.request(`/v4/transactions/${id}/`, { headers: headers() })).status).toBe(200);
    expect((await app.request('/buyers/', { headers: headers() })).status).toBe(200);
    expect((await app.request('/_sandbox/health/')).status).toBe(200);
    // A method the path does not have is still 405, and an unknown path 404.
    expect((await app.request('/v4/transactions/', { method: 'PATCH', headers: headers() })).status).toBe(405);
    expect((await app.request('/v4/nope/', { headers: headers() })).status).toBe(404);
  });
});

describe('X-Forwarded-For', () => {
  it('takes the first valid address of the list', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7, 10.0.0.1')).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7:4711, 10.0.0.1')).toBe('203.0.113.7');
    expect(clientAddress('[2001:db8::7]:4711')).toBe('2001:db8::7');
    expect(clientAddress('[2001:db8::7]')).toBe('2001:db8::7');
    expect(clientAddress('2001:db8::7')).toBe('2001:db8::7');
    expect(clientAddress('unknown, 198.51.100.4')).toBe('198.51.100.4');
    expect(clientAddress(' unknown ,, 198.51.100.4:80 ')).toBe('198.51.100.4');
    expect(clientAddress('unknown')).toBeUndefined();
    expect(clientAddress('')).toBeUndefined();
    expect(clientAddress('proxy.example, 999.1.1.1, 203.0.113.7:99999')).toBeUndefined();
  });

  it('accepts lists as proxies write them; none valid is a 400 at the header', async () => {
    const { app } = testApp();
    const good = ['unknown, 203.0.113.7', '203.0.113.7:4711, 10.0.0.1', '[2001:db8::7]:4711', 'unknown, [2001:db8::7]:443, 10.0.0.1'];
    for (const [i, value] of good.entries()) {
      const res = await postSubscription(app, directSubscription({ external_identifier: `xff-${i}` }), DIRECT, {
        'x-forwarded-for': value,
      });
      expect(res.status, value).toBe(201);
    }
    for (const value of ['unknown', 'unknown, proxy.example', '999.1.1.1:80']) {
      const res = await postSubscription(app, directSubscription({ external_identifier: 'xff-bad' }), DIRECT, { 'x-forwarded-for': value });
      expect(res.status, value).toBe(400);
      expect((await body<ErrorBody>(res)).details).toEqual([expect.objectContaining({ pointer: '/x-forwarded-for', location: 'header' })]);
    }
  });
});

describe('JWT claims and the 401 challenge', () => {
  it('a JWT without a scopes claim is a valid token without permission: 403', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', { headers: bearer(jwt({ iat: now(), exp: now() + 60 })) });
    expect(res.status).toBe(403);
    const b = await body<ErrorBody>(res);
    expect(b.code).toBe('forbidden');
    expect(b.message).toMatch(/no scopes/);
  });

  it('an iat in the future (beyond the 60 s leeway) is 401 on the real clock: advancing the sandbox clock changes nothing', async () => {
    const { app, features } = testApp();
    const future = jwt({ scopes: ['*.read'], iat: now() + 3600, exp: now() + 7200 });
    const res = await app.request('/v4/transactions', { headers: bearer(future) });
    expect(res.status).toBe(401);
    expect((await body<ErrorBody>(res)).message).toMatch(/future/);
    await features.sandbox.service.advanceClock(3601);
    expect((await app.request('/v4/transactions', { headers: bearer(future) })).status).toBe(401);
  });

  it('every 401 carries WWW-Authenticate: Bearer', async () => {
    const { app } = testApp();
    const cases: Record<string, string>[] = [
      { 'x-merchant-account-id': DIRECT.account_id },
      bearer('garbage'),
      bearer('sk_live_abc'),
      bearer('sk_test_unknown'),
      bearer(jwt({ scopes: ['*.read'], iat: now() - 120, exp: now() - 60 })),
      bearer(jwt({ scopes: ['*.read'], iat: now() + 600, exp: now() + 1200 })),
    ];
    for (const h of cases) {
      const res = await app.request('/v4/transactions', { headers: h });
      expect(res.status, JSON.stringify(h)).toBe(401);
      expect(res.headers.get('www-authenticate'), JSON.stringify(h)).toMatch(/^Bearer realm="payment-sandbox"/);
    }
    const missing = await app.request('/v4/transactions', { headers: { 'x-merchant-account-id': DIRECT.account_id } });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="payment-sandbox"');
    const bad = await app.request('/v4/transactions', { headers: bearer('garbage') });
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="payment-sandbox", error="invalid_token"');
    // Not on other statuses.
    expect((await app.request('/v4/transactions', { headers: headers() })).headers.get('www-authenticate')).toBeNull();
  });
});

describe('buyer filters (search, external_identifier)', () => {
  it('filters as the borrowed API does: search in display_name or external_identifier, external_identifier exactly', async () => {
    const { app } = testApp();
    const all = await body<PageBody<BuyerItem>>(await app.request('/v4/buyers?limit=100', { headers: headers() }));
    const someone = all.items.find((b) => b.external_identifier !== null)!;
    const lastName = someone.display_name!.split(' ').at(-1)!;

    const byName = await body<PageBody<BuyerItem>>(
      await app.request(`/v4/buyers?limit=100&search=${encodeURIComponent(lastName.toUpperCase())}`, { headers: headers() }),
    );
    const expected = all.items.filter(
      (b) =>
        `${b.display_name}`.toLowerCase().includes(lastName.toLowerCase()) ||
        `${b.external_identifier}`.toLowerCase().includes(lastName.toLowerCase()),
    );
    expect(byName.items.map((b) => b.id)).toEqual(expected.map((b) => b.id));
    expect(byName.items.map((b) => b.id)).toContain(someone.id);

    const digits = someone.external_identifier!.slice(-4);
    const byPart = await body<PageBody<BuyerItem>>(await app.request(`/v4/buyers?limit=100&search=${digits}`, { headers: headers() }));
    expect(byPart.items.map((b) => b.id)).toContain(someone.id);

    const exact = await body<PageBody<BuyerItem>>(
      await app.request(`/v4/buyers?external_identifier=${someone.external_identifier!}`, { headers: headers() }),
    );
    expect(exact.items.map((b) => b.id)).toEqual(
      all.items.filter((b) => b.external_identifier === someone.external_identifier).map((b) => b.id),
    );
    const partial = await body<PageBody<BuyerItem>>(await app.request(`/v4/buyers?external_identifier=${digits}`, { headers: headers() }));
    expect(partial.items).toEqual([]);

    const both = await body<PageBody<BuyerItem>>(
      await app.request(`/v4/buyers?search=${encodeURIComponent(lastName)}&external_identifier=${someone.external_identifier!}`, {
        headers: headers(),
      }),
    );
    expect(both.items.map((b) => b.id)).toEqual([someone.id]);
    // An empty filter is no filter; the bare /buyers path filters too.
    expect((await body<PageBody>(await app.request('/v4/buyers?limit=100&search=', { headers: headers() }))).items.length).toBe(
      all.items.length,
    );
    const bare = await body<PageBody<BuyerItem>>(
      await app.request(`/buyers?external_identifier=${someone.external_identifier!}`, { headers: headers() }),
    );
    expect(bare.items.map((b) => b.id)).toContain(someone.id);
  });

  it('pages a filtered list with its own cursors', async () => {
    const { app } = testApp();
    const all = await body<PageBody<BuyerItem>>(await app.request('/v4/buyers?limit=100', { headers: headers() }));
    const letter = 'a';
    const matching = all.items.filter((b) => `${b.display_name} ${b.external_identifier}`.toLowerCase().includes(letter));
    expect(matching.length).toBeGreaterThan(3);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: PageBody<BuyerItem> = await body<PageBody<BuyerItem>>(
        await app.request(`/v4/buyers?limit=3&search=${letter}${cursor ? `&cursor=${cursor}` : ''}`, { headers: headers() }),
      );
      ids.push(...page.items.map((b) => b.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(ids).toEqual(matching.map((b) => b.id));
  });
});

describe('cursors bound to their list and account', () => {
  it('a cursor is refused (400 at query) by another list, another account or other filters', async () => {
    const { app } = testApp();
    for (const amount of [700, 701, 702])
      await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment({ amount })) });
    const page = await body<PageBody>(await app.request('/v4/transactions?limit=1', { headers: headers() }));
    const cursor = page.next_cursor!;
    expect((await app.request(`/v4/transactions?limit=1&cursor=${cursor}`, { headers: headers() })).status).toBe(200);

    const buyers = await body<PageBody>(await app.request('/v4/buyers?limit=1', { headers: headers() }));
    const misuses: Array<[string, string, Record<string, string>]> = [
      ['another list', `/v4/buyers?cursor=${cursor}`, headers()],
      ['another list (subscriptions)', `/v4/subscriptions?cursor=${cursor}`, headers()],
      ['another account', `/v4/transactions?cursor=${cursor}`, headers(CHECKOUT)],
      ['other filters', `/v4/buyers?search=a&cursor=${buyers.next_cursor!}`, headers()],
      ['the control API', `/_sandbox/transactions?account_id=${DIRECT.account_id}&cursor=${cursor}`, {}],
    ];
    for (const [name, path, h] of misuses) {
      const res = await app.request(path, { headers: h });
      expect(res.status, name).toBe(400);
      const b = await body<ErrorBody>(res);
      expect(b.details, name).toEqual([expect.objectContaining({ pointer: '/cursor', location: 'query', type: 'value_error' })]);
      expect(b.details[0]!.message, name).toMatch(/another list/);
    }
  });
});

describe('the refunds of a transaction', () => {
  it('are a page envelope with cursor pages, newest first', async () => {
    const { app } = testApp();
    const paid = await body<{ id: string }>(
      await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(
          directPayment({
            amount: 1000,
            payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/30', security_code: '123' },
          }),
        ),
      }),
    );
    const refundIds: string[] = [];
    for (const amount of [100, 200, 300]) {
      const res = await app.request(`/v4/transactions/${paid.id}/refunds`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ amount }),
      });
      expect(res.status).toBe(201);
      refundIds.unshift((await body<{ id: string }>(res)).id);
    }
    const first = await body<PageBody<{ id: string; amount: number }>>(
      await app.request(`/v4/transactions/${paid.id}/refunds?limit=2`, { headers: headers() }),
    );
    expect(Object.keys(first)).toEqual(['items', 'limit', 'next_cursor', 'previous_cursor']);
    expect(first.limit).toBe(2);
    expect(first.items.map((r) => r.amount)).toEqual([300, 200]);
    expect(first.previous_cursor).toBeNull();
    const second = await body<PageBody<{ id: string }>>(
      await app.request(`/v4/transactions/${paid.id}/refunds?limit=2&cursor=${first.next_cursor!}`, { headers: headers() }),
    );
    expect([...first.items, ...second.items].map((r) => r.id)).toEqual(refundIds);
    expect(second.next_cursor).toBeNull();
    const whole = await body<PageBody>(await app.request(`/v4/transactions/${paid.id}/refunds`, { headers: headers() }));
    expect(whole).toMatchObject({ limit: 20, next_cursor: null, previous_cursor: null });
    expect(whole.items).toHaveLength(3);
    // A refunds cursor is bound to its transaction.
    const other = await body<{ id: string }>(
      await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) }),
    );
    expect((await app.request(`/v4/transactions/${other.id}/refunds?cursor=${first.next_cursor!}`, { headers: headers() })).status).toBe(
      400,
    );
    expect((await app.request(`/v4/transactions/${paid.id}/refunds?limit=0`, { headers: headers() })).status).toBe(400);
  });
});
