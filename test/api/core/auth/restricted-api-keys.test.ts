/**
 * Restricted keys, without a socket: mint an sk_test_ key with
 * scopes, use it inside and outside them (403 forbidden naming the missing scope, in the
 * spec's envelope), list (secret redacted, never again in full), revoke (then 401), bad input,
 * reset and a --db restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { body, CHECKOUT, DIRECT, directPayment, headers, testApp } from '../../../support/app.js';

type Json = Record<string, unknown>;
type App = ReturnType<typeof testApp>['app'];

const mint = (app: App, payload: unknown, accountId = DIRECT.account_id) =>
  Promise.resolve(
    app.request(`/_sandbox/accounts/${accountId}/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    }),
  );

async function minted(app: App, scopes: string[], accountId = DIRECT.account_id): Promise<Json & { secret: string; id: string }> {
  const res = await mint(app, { scopes, name: 'ci job' }, accountId);
  expect(res.status).toBe(201);
  return body(res);
}

const withKey = (secret: string, accountId = DIRECT.account_id) => headers({ account_id: accountId, api_key: secret });

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

describe('POST /_sandbox/accounts/{account_id}/api-keys: a restricted key', () => {
  it('mints an sk_test_ key that works inside its scopes and is 403 forbidden outside them, naming the missing scope', async () => {
    const { app } = testApp();
    const key = await minted(app, ['transactions.read', 'transactions.read']);
    expect(key).toMatchObject({ object: 'api_key', account_id: DIRECT.account_id, name: 'ci job', scopes: ['transactions.read'] });
    expect(key.secret).toMatch(/^sk_test_rk_[0-9a-f]{40}$/);
    expect(key.redacted_secret).toBe(`sk_test_rk_…${key.secret.slice(-4)}`);

    expect((await app.request('/v4/transactions', { headers: withKey(key.secret) })).status).toBe(200);
    const refused = await app.request('/v4/transactions', {
      method: 'POST',
      headers: withKey(key.secret),
      body: JSON.stringify(directPayment()),
    });
    expect(refused.status).toBe(403);
    const envelope = await body(refused);
    expect(Object.keys(envelope).sort()).toEqual(['code', 'message', 'status', 'type'].concat(envelope.details ? ['details'] : []).sort());
    expect(envelope).toMatchObject({ type: 'error', code: 'forbidden', status: 403 });
    expect(envelope.message).toContain('transactions.write');
    expect(envelope.message).toContain('restricted API key');
    // Nothing was created by the refused call.
    const list = await body<{ items: unknown[] }>(await app.request('/v4/transactions', { headers: withKey(key.secret) }));
    expect(list.items).toHaveLength(0);
    // Every other scope: buyers, subscriptions, refunds.
    expect((await app.request('/v4/buyers', { headers: withKey(key.secret) })).status).toBe(403);
    expect((await app.request('/v4/subscriptions', { headers: withKey(key.secret) })).status).toBe(403);
  });

  it('the key belongs to its account: another account header is 403', async () => {
    const { app } = testApp();
    const key = await minted(app, ['transactions.read']);
    const res = await app.request('/v4/transactions', { headers: withKey(key.secret, CHECKOUT.account_id) });
    expect(res.status).toBe(403);
  });

  it('a key with refunds.write refunds but cannot read the transaction', async () => {
    const { app } = testApp();
    const created = await body(
      await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(
          directPayment({ payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/30', security_code: '123' } }),
        ),
      }),
    );
    const key = await minted(app, ['refunds.write']);
    const refund = await app.request(`/v4/transactions/${String(created.id)}/refunds`, {
      method: 'POST',
      headers: withKey(key.secret),
      body: JSON.stringify({ amount: 100 }),
    });
    expect(refund.status).toBe(201);
    const read = await app.request(`/v4/transactions/${String(created.id)}`, { headers: withKey(key.secret) });
    expect(read.status).toBe(403);
    expect((await body(read)).message).toContain('transactions.read');
  });

  it('bad input gets the envelope: no body, no scopes, empty, unknown scope, unknown account', async () => {
    const { app } = testApp();
    const cases: [unknown, string][] = [
      [{}, '/scopes'],
      [{ scopes: [] }, '/scopes'],
      [{ scopes: ['transactions:read'] }, '/scopes/0'],
      [{ scopes: 'transactions.read' }, '/scopes'],
      [{ scopes: ['buyers.read'], name: '' }, '/name'],
    ];
    for (const [payload, pointer] of cases) {
      const res = await mint(app, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      const envelope = await body<{ type: string; code: string; details: { pointer: string; location: string }[] }>(res);
      expect(envelope).toMatchObject({ type: 'error', code: 'bad_request', status: 400 });
      expect(envelope.details.map((d) => [d.pointer, d.location])).toContainEqual([pointer, 'body']);
    }
    const malformed = await mint(app, '{"scopes": [');
    expect(malformed.status).toBe(400);
    expect((await body(malformed)).type).toBe('error');
    const unknown = await mint(app, { scopes: ['buyers.read'] }, 'acc_nope');
    expect(unknown.status).toBe(404);
    expect(await body(unknown)).toMatchObject({ type: 'error', code: 'not_found', status: 404 });
    expect((await app.request('/_sandbox/accounts/acc_nope/api-keys')).status).toBe(404);
  });
});

describe('GET and DELETE /_sandbox/accounts/{account_id}/api-keys', () => {
  it('lists the keys with the secret redacted (never in full again); revoking makes the secret a 401', async () => {
    const { app, db } = testApp();
    const a = await minted(app, ['transactions.read']);
    const b = await minted(app, ['buyers.read', 'subscriptions.write']);
    const listed = await app.request(`/_sandbox/accounts/${DIRECT.account_id}/api-keys`);
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(a.secret);
    expect(text).not.toContain(b.secret);
    const items = (JSON.parse(text) as { items: Json[] }).items;
    expect(items.map((k) => [k.id, k.scopes, k.redacted_secret])).toEqual([
      [a.id, ['transactions.read'], a.redacted_secret],
      [b.id, ['buyers.read', 'subscriptions.write'], b.redacted_secret],
    ]);
    expect(items.every((k) => !('secret' in k))).toBe(true);
    // Not stored either: only its SHA-256.
    expect(JSON.stringify(db.prepare('SELECT * FROM api_keys').all())).not.toContain(a.secret);
    // Another account sees none of them.
    expect((await body<{ items: unknown[] }>(await app.request(`/_sandbox/accounts/${CHECKOUT.account_id}/api-keys`))).items).toEqual([]);

    const revoked = await app.request(`/_sandbox/accounts/${DIRECT.account_id}/api-keys/${a.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect((await body(revoked)).id).toBe(a.id);
    const after = await app.request('/v4/transactions', { headers: withKey(a.secret) });
    expect(after.status).toBe(401);
    expect(await body(after)).toMatchObject({ type: 'error', code: 'unauthorized', status: 401 });
    expect((await app.request(`/_sandbox/accounts/${DIRECT.account_id}/api-keys/${a.id}`, { method: 'DELETE' })).status).toBe(404);
    // Revoking through another account's path finds nothing.
    expect((await app.request(`/_sandbox/accounts/${CHECKOUT.account_id}/api-keys/${b.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(
      (await body<{ items: Json[] }>(await app.request(`/_sandbox/accounts/${DIRECT.account_id}/api-keys`))).items.map((k) => k.id),
    ).toEqual([b.id]);
  });

  it('a key that was just used is refused as soon as it is revoked; the others still work', async () => {
    const { app } = testApp();
    const a = await minted(app, ['transactions.read']);
    const b = await minted(app, ['transactions.read']);
    for (let i = 0; i < 3; i++) {
      expect((await app.request('/v4/transactions', { headers: withKey(a.secret) })).status).toBe(200);
      expect((await app.request('/v4/transactions', { headers: withKey(b.secret) })).status).toBe(200);
    }
    expect((await app.request(`/_sandbox/accounts/${DIRECT.account_id}/api-keys/${a.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await app.request('/v4/transactions', { headers: withKey(a.secret) })).status).toBe(401);
    expect((await app.request('/v4/transactions', { headers: withKey(b.secret) })).status).toBe(200);
    // A key minted after the revocation works at once.
    const c = await minted(app, ['transactions.read']);
    expect((await app.request('/v4/transactions', { headers: withKey(c.secret) })).status).toBe(200);
  });

  it('a reset keeps the keys, as it keeps the accounts; a --db file keeps them across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-keys-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = testApp({ db: join(dir, 'sandbox.db') });
    const key = await minted(first.app, ['transactions.read']);
    expect((await first.app.request('/_sandbox/reset', { method: 'POST' })).status).toBe(200);
    expect((await first.app.request('/v4/transactions', { headers: withKey(key.secret) })).status).toBe(200);
    await first.lifecycle.close();

    const second = testApp({ db: join(dir, 'sandbox.db') });
    cleanup.push(() => void second.lifecycle.close());
    expect((await second.app.request('/v4/transactions', { headers: withKey(key.secret) })).status).toBe(200);
    expect((await second.app.request('/v4/buyers', { headers: withKey(key.secret) })).status).toBe(403);
    expect(
      (await body<{ items: Json[] }>(await second.app.request(`/_sandbox/accounts/${DIRECT.account_id}/api-keys`))).items.map((k) => k.id),
    ).toEqual([key.id]);
  });
});
