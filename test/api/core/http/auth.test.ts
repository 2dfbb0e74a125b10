/** Authentication and tenancy: the 401/403 matrix with API keys and JWTs, and isolation. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKOUT, DIRECT, body, directPayment, headers, jwt, testApp } from '../../../support/app.js';

const now = () => Math.floor(Date.now() / 1000);

describe('authentication', () => {
  const { app, features } = testApp();
  const get = (h: Record<string, string>) => app.request('/v4/transactions', { headers: h });

  it('accepts the sk_test_ API key with the account header', async () => {
    expect((await get(headers())).status).toBe(200);
  });

  it.each([
    ['no Authorization header', {}],
    ['a Basic header', { authorization: 'Basic abc' }],
    ['an unknown sk_test_ key', { authorization: 'Bearer sk_test_nope' }],
    ['garbage', { authorization: 'Bearer not-a-token' }],
  ])('401 unauthorized for %s', async (_name, h) => {
    const res = await get({ 'x-merchant-account-id': DIRECT.account_id, ...h });
    expect(res.status).toBe(401);
    const b = await body(res);
    expect(b).toMatchObject({ type: 'error', code: 'unauthorized', status: 401 });
  });

  it('always refuses sk_live_ keys, saying why', async () => {
    const res = await get({ authorization: 'Bearer sk_live_abc123', 'x-merchant-account-id': DIRECT.account_id });
    expect(res.status).toBe(401);
    expect((await body(res)).message).toMatch(/never accepts production keys/);
  });

  it('400 with a header detail when X-MERCHANT-ACCOUNT-ID is missing', async () => {
    const res = await get({ authorization: `Bearer ${DIRECT.api_key}` });
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({
      code: 'bad_request',
      details: [{ location: 'header', pointer: '/x-merchant-account-id', type: 'missing' }],
    });
  });

  it('403 when the account header names another account than the token', async () => {
    const res = await get({ authorization: `Bearer ${DIRECT.api_key}`, 'x-merchant-account-id': CHECKOUT.account_id });
    expect(res.status).toBe(403);
    expect((await body(res)).code).toBe('forbidden');
  });

  it('header names are case-insensitive', async () => {
    const res = await get({ AUTHORIZATION: `Bearer ${DIRECT.api_key}`, 'X-Merchant-Account-Id': DIRECT.account_id });
    expect(res.status).toBe(200);
  });

  describe('JWT', () => {
    const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'x-merchant-account-id': DIRECT.account_id });
    const valid = { scopes: ['transactions.read'], iat: now(), exp: now() + 300 };

    it('accepts a valid RS256 JWT with the scope', async () => {
      expect((await get(bearer(jwt(valid)))).status).toBe(200);
    });

    it('accepts the *.read wildcard', async () => {
      expect((await get(bearer(jwt({ ...valid, scopes: ['*.read'] })))).status).toBe(200);
    });

    it.each([
      ['expired beyond the 60 s leeway', { ...valid, iat: now() - 600, exp: now() - 61 }, {}, /expired/],
      ['issued beyond the 60 s leeway in the future', { ...valid, iat: now() + 120, exp: now() + 600 }, {}, /issued in the future/],
      ['not yet valid (nbf)', { ...valid, nbf: now() + 300 }, {}, /nbf/],
      ['without exp', { scopes: ['transactions.read'], iat: now() }, {}, /exp/],
      ['with an unknown kid', valid, { kid: 'kid_unknown' }, /unknown kid/],
      [
        'signed with another key',
        valid,
        {
          privateKeyPem: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
        /signature/,
      ],
      ['signed with the other account key', valid, { privateKeyPem: CHECKOUT.jwt_private_key_pem }, /signature/],
      ['with alg HS256', valid, { alg: 'HS256' }, /RS256/],
    ])('401 for a JWT %s', async (_name, claims, opts, message) => {
      const res = await get(bearer(jwt(claims, opts)));
      expect(res.status).toBe(401);
      const b = await body(res);
      expect(b.code).toBe('unauthorized');
      expect(b.message).toMatch(message);
    });

    it('403 forbidden for a valid JWT without the scope', async () => {
      const res = await get(bearer(jwt({ ...valid, scopes: ['buyers.read'] })));
      expect(res.status).toBe(403);
      expect(await body(res)).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/transactions\.read/) });
    });

    it('403 for a read-only token on a write', async () => {
      const res = await app.request('/v4/transactions', {
        method: 'POST',
        headers: { ...bearer(jwt({ ...valid, scopes: ['*.read'] })), 'content-type': 'application/json' },
        body: JSON.stringify(directPayment()),
      });
      expect(res.status).toBe(403);
    });

    it('JWT times are real time: a token minted now still works after the sandbox clock is advanced hours', async () => {
      const token = jwt({ ...valid, exp: now() + 300 });
      expect((await get(bearer(token))).status).toBe(200);
      await features.sandbox.service.advanceClock(6 * 3600);
      expect((await get(bearer(token))).status).toBe(200);
    });

    it('tolerates 60 s of clock skew: iat 2 s ahead, exp and nbf within the leeway', async () => {
      expect(await get(bearer(jwt({ ...valid, iat: now() + 2 })))).toMatchObject({ status: 200 });
      expect(await get(bearer(jwt({ ...valid, iat: now() - 300, exp: now() - 30 })))).toMatchObject({ status: 200 });
      expect(await get(bearer(jwt({ ...valid, nbf: now() + 30 })))).toMatchObject({ status: 200 });
    });
  });
});

describe('tenant isolation', () => {
  it("an account never sees another account's data", async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
    const tx = await body(res);
    const created = await app.request('/_sandbox/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'direct' }),
    });
    expect(created.status).toBe(201);
    const other = await body<{ account_id: string; api_key: string }>(created);
    const otherGet = await app.request(`/v4/transactions/${String(tx.id)}`, { headers: headers(other) });
    expect(otherGet.status).toBe(404);
    expect((await body(otherGet)).code).toBe('not_found');
    const list = await body<{ items: unknown[] }>(await app.request('/v4/transactions', { headers: headers(other) }));
    expect(list.items).toEqual([]);
    const mine = await app.request(`/v4/transactions/${String(tx.id)}`, { headers: headers() });
    expect(mine.status).toBe(200);
    // Buyers are per account too.
    const a = await body<{ items: { id: string; merchant_account_id: string }[] }>(await app.request('/v4/buyers', { headers: headers() }));
    const b = await body<{ items: { id: string; merchant_account_id: string }[] }>(
      await app.request('/v4/buyers', { headers: headers(other) }),
    );
    expect(a.items.every((x) => x.merchant_account_id === DIRECT.account_id)).toBe(true);
    expect(b.items.every((x) => x.merchant_account_id === other.account_id)).toBe(true);
    expect(a.items.map((x) => x.id)).not.toEqual(b.items.map((x) => x.id));
  });
});
