/**
 * Edge cases the spec leaves open, again over a real socket (each is also checked without one in the
 * api tier): trailing slashes, `X-Forwarded-For` lists, JWT claims, buyer filters, cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { CHECKOUT, DIRECT, bearer, directPayment, headers, jwt, nowSeconds, type PageBody } from '../../../support/app.js';
import { directSubscription } from '../../../support/subscriptions.js';

const now = nowSeconds;
interface BuyerItem {
  id: string;
  display_name: string | null;
  external_identifier: string | null;
}
describe('edge cases over a real socket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, ticker: false });
  });
  afterAll(() => server.stop());
  const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);

  it('answers each edge case as the api tier checks it', async () => {
    // Trailing slash.
    const slashed = await call('/v4/transactions/', { headers: headers() });
    expect(slashed.status).toBe(200);
    expect(await slashed.json()).toMatchObject({ items: [], limit: 20 });
    // X-Forwarded-For as a proxy chain writes it.
    const sub = await call('/v4/subscriptions', {
      method: 'POST',
      headers: headers(DIRECT, { 'x-forwarded-for': 'unknown, [2001:db8::7]:4711, 10.0.0.1' }),
      body: JSON.stringify(directSubscription()),
    });
    expect(sub.status).toBe(201);
    const noAddress = await call('/v4/subscriptions', {
      method: 'POST',
      headers: headers(DIRECT, { 'x-forwarded-for': 'unknown' }),
      body: JSON.stringify(directSubscription({ external_identifier: 'sub-2' })),
    });
    expect(noAddress.status).toBe(400);
    // JWT claims, WWW-Authenticate.
    expect((await call('/v4/transactions', { headers: bearer(jwt({ iat: now(), exp: now() + 60 })) })).status).toBe(403);
    const future = await call('/v4/transactions', { headers: bearer(jwt({ scopes: ['*.read'], iat: now() + 600, exp: now() + 1200 })) });
    expect(future.status).toBe(401);
    expect(future.headers.get('www-authenticate')).toMatch(/^Bearer /);
    // Buyer filters and a cursor of another account.
    const all = (await (await call('/v4/buyers?limit=100', { headers: headers() })).json()) as PageBody<BuyerItem>;
    const someone = all.items.find((b) => b.external_identifier !== null)!;
    const found = (await (
      await call(`/v4/buyers?external_identifier=${someone.external_identifier!}`, { headers: headers() })
    ).json()) as PageBody<BuyerItem>;
    expect(found.items.map((b) => b.id)).toContain(someone.id);
    const page = (await (await call('/v4/buyers?limit=1', { headers: headers() })).json()) as PageBody;
    expect((await call(`/v4/buyers?cursor=${page.next_cursor!}`, { headers: headers(CHECKOUT) })).status).toBe(400);
    // Refunds as a page.
    const paid = (await (
      await call('/v4/transactions', {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(
          directPayment({ payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/30', security_code: '123' } }),
        ),
      })
    ).json()) as { id: string };
    expect(
      (await call(`/v4/transactions/${paid.id}/refunds`, { method: 'POST', headers: headers(), body: JSON.stringify({ amount: 50 }) }))
        .status,
    ).toBe(201);
    const refunds = (await (await call(`/v4/transactions/${paid.id}/refunds/`, { headers: headers() })).json()) as PageBody;
    expect(refunds).toMatchObject({
      items: [expect.objectContaining({ amount: 50 })],
      limit: 20,
      next_cursor: null,
      previous_cursor: null,
    });
  });
});
