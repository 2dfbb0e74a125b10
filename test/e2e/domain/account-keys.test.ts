/**
 * Fresh account key pairs are generated off the main thread (async `generateKeyPair` on
 * libuv's thread pool), and accounts made that way work over a real socket with a JWT.
 */
import { createPublicKey } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { newAccount } from '../../../src/domain/accounts.js';
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
      fetch(`${server.url}/_sandbox/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'direct' }) }),
    );
    const health = await fetch(`${server.url}/_sandbox/credentials`);
    expect(health.status).toBe(200);
    const created = await Promise.all(creating);
    for (const res of created) expect(res.status).toBe(201);
    const creds = (await created[0]!.json()) as { account_id: string; jwt_kid: string; jwt_private_key_pem: string };
    const now = Math.floor(Date.now() / 1000);
    const token = jwt({ scopes: ['transactions.read'], iat: now, exp: now + 600 }, { kid: creds.jwt_kid, privateKeyPem: creds.jwt_private_key_pem });
    const list = await fetch(`${server.url}/v4/transactions`, { headers: { authorization: `Bearer ${token}`, 'x-merchant-account-id': creds.account_id } });
    expect(list.status).toBe(200);
  });
});
