/**
 * Fresh account key pairs are generated off the main thread (async `generateKeyPair` on
 * libuv's thread pool), and accounts made that way work over a real socket with a JWT.
 */
import { createPublicKey, createSign, createVerify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { newAccount } from '../../../src/features/accounts/accounts.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { jwt } from '../../support/app.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

describe('newAccount key generation', () => {
  it('lets the event loop turn while the key pair is made (not generated synchronously)', async () => {
    let turns = 0;
    const tick = (): void => {
      turns += 1;
      if (pending) setImmediate(tick);
    };
    let pending = true;
    const made = newAccount('direct', undefined, 0).finally(() => (pending = false));
    setImmediate(tick);
    const row = await made;
    expect(turns).toBeGreaterThan(0);
    expect(createPublicKey(row.jwt_private_key_pem).export({ type: 'spki', format: 'pem' })).toBe(row.jwt_public_key_pem);
  });

  it('makes a distinct 2048-bit RSA key pair for each of several accounts created at once', async () => {
    const rows = await Promise.all(Array.from({ length: 5 }, (_, i) => newAccount(i % 2 ? 'checkout' : 'direct', undefined, 0)));
    expect(new Set(rows.map((r) => r.jwt_private_key_pem)).size).toBe(5);
    for (const r of rows) expect(createPublicKey(r.jwt_public_key_pem).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});

describe('POST /_sandbox/accounts over a socket', () => {
  it('answers other requests while accounts are being made, and the new key signs a JWT the API accepts', async () => {
    const server: RunningServer = await startServer({ port: 0, ticker: false });
    cleanup.push(() => server.stop());
    const creating = Array.from({ length: 3 }, () =>
      fetch(`${server.url}/_sandbox/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'direct' }),
      }),
    );
    const health = await fetch(`${server.url}/_sandbox/credentials`);
    expect(health.status).toBe(200);
    const created = await Promise.all(creating);
    for (const res of created) expect(res.status).toBe(201);
    const creds = (await created[0]!.json()) as { account_id: string; jwt_kid: string; jwt_private_key_pem: string };
    const now = Math.floor(Date.now() / 1000);
    const token = jwt(
      { scopes: ['transactions.read'], iat: now, exp: now + 600 },
      { kid: creds.jwt_kid, privateKeyPem: creds.jwt_private_key_pem },
    );
    const list = await fetch(`${server.url}/v4/transactions`, {
      headers: { authorization: `Bearer ${token}`, 'x-merchant-account-id': creds.account_id },
    });
    expect(list.status).toBe(200);
  });
});

/** Polls GET /_sandbox/health until the key pool holds `ready` keys (no timing asserted). */
async function poolFilled(url: string, ready: number): Promise<{ size: number; ready: number }> {
  for (;;) {
    const body = (await (await fetch(`${url}/_sandbox/health`)).json()) as { key_pool: { size: number; ready: number } };
    if (body.key_pool.ready >= ready) return body.key_pool;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function createAccount(url: string): Promise<{ account_id: string; jwt_kid: string; jwt_private_key_pem: string; api_key: string }> {
  const res = await fetch(`${url}/_sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'direct' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { account_id: string; jwt_kid: string; jwt_private_key_pem: string; api_key: string };
}

async function jwtWorks(url: string, creds: { account_id: string; jwt_kid: string; jwt_private_key_pem: string }): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const token = jwt(
    { scopes: ['transactions.read'], iat: now, exp: now + 600 },
    { kid: creds.jwt_kid, privateKeyPem: creds.jwt_private_key_pem },
  );
  return (
    await fetch(`${url}/v4/transactions`, { headers: { authorization: `Bearer ${token}`, 'x-merchant-account-id': creds.account_id } })
  ).status;
}

describe('the key pool (--key-pool)', () => {
  it('fills once listening; pooled accounts get distinct, valid RSA-2048 pairs that sign JWTs the API accepts; it refills', async () => {
    const server: RunningServer = await startServer({ port: 0, ticker: false, keyPool: 3 });
    cleanup.push(() => server.stop());
    expect(await poolFilled(server.url, 3)).toEqual({ size: 3, ready: 3 });
    const accounts = await Promise.all([createAccount(server.url), createAccount(server.url), createAccount(server.url)]);
    const rows = accounts.map((a) => server.features.accounts.queries.byId(a.account_id)!);
    expect(new Set(rows.map((r) => r.jwt_private_key_pem)).size).toBe(3);
    expect(new Set(rows.map((r) => r.jwt_public_key_pem)).size).toBe(3);
    for (const row of rows) {
      const publicKey = createPublicKey(row.jwt_public_key_pem);
      expect(publicKey.asymmetricKeyType).toBe('rsa');
      expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
      expect(createPublicKey(row.jwt_private_key_pem).export({ type: 'spki', format: 'pem' })).toBe(row.jwt_public_key_pem);
      const signature = createSign('sha256').update('pair').sign(row.jwt_private_key_pem);
      expect(createVerify('sha256').update('pair').verify(row.jwt_public_key_pem, signature)).toBe(true);
    }
    for (const a of accounts) expect(await jwtWorks(server.url, a)).toBe(200);
    // taken keys are replaced, and never handed out again
    expect(await poolFilled(server.url, 3)).toEqual({ size: 3, ready: 3 });
    const later = await createAccount(server.url);
    expect(rows.map((r) => r.jwt_private_key_pem)).not.toContain(later.jwt_private_key_pem);
  });

  it('--key-pool 0 makes each key when its account is created', async () => {
    const server: RunningServer = await startServer({ port: 0, ticker: false, keyPool: 0 });
    cleanup.push(() => server.stop());
    expect((await (await fetch(`${server.url}/_sandbox/health`)).json()) as unknown).toMatchObject({
      status: 'ok',
      key_pool: { size: 0, ready: 0 },
    });
    const [a, b] = await Promise.all([createAccount(server.url), createAccount(server.url)]);
    expect(a.jwt_private_key_pem).not.toBe(b.jwt_private_key_pem);
    expect(await jwtWorks(server.url, a)).toBe(200);
    expect(await jwtWorks(server.url, b)).toBe(200);
  });
});
