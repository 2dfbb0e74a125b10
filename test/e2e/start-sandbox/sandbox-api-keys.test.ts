/**
 * Restricted keys over real loopback sockets, through `startSandbox()`'s typed API
 * (`sandbox.apiKeys.create/list/revoke`): a merchant's code with a read-only key gets the
 * spec's 403 envelope on a create, naming the missing scope, and a 401 once the key is revoked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../src/core/http/auth.js';
import {
  startSandbox,
  SandboxRequestError,
  type ApiKey,
  type ApiKeyScope,
  type MintedApiKey,
  type RunningSandbox,
} from '../../../src/index.js';
import { directPayment } from '../../support/app.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function start(): Promise<RunningSandbox> {
  const sandbox = await startSandbox();
  cleanup.push(() => sandbox.stop());
  return sandbox;
}

// The exported union names exactly the scopes the API checks (both ways).
const everyScope: readonly ApiKeyScope[] = SCOPES;
const known: readonly (typeof SCOPES)[number][] = everyScope;

describe('sandbox.apiKeys (startSandbox)', () => {
  it('mints a read-only key: reads work, a create is 403 forbidden naming transactions.write; revoked: 401', async () => {
    expect(known).toHaveLength(6);
    const sandbox = await start();
    const { account_id: accountId } = sandbox.credentials.direct;
    const key: MintedApiKey = await sandbox.apiKeys.create(accountId, { scopes: ['transactions.read'], name: 'reporting' });
    expect(key.secret.startsWith('sk_test_')).toBe(true);
    expect(key.scopes).toEqual(['transactions.read']);

    const headers = { authorization: `Bearer ${key.secret}`, 'x-merchant-account-id': accountId, 'content-type': 'application/json' };
    expect((await fetch(`${sandbox.apiUrl}/transactions`, { headers })).status).toBe(200);
    const refused = await fetch(`${sandbox.apiUrl}/transactions`, { method: 'POST', headers, body: JSON.stringify(directPayment()) });
    expect(refused.status).toBe(403);
    const envelope = (await refused.json()) as { type: string; code: string; status: number; message: string };
    expect(envelope).toMatchObject({ type: 'error', code: 'forbidden', status: 403 });
    expect(envelope.message).toMatch(/lacks the transactions\.write scope/);

    const listed: ApiKey[] = await sandbox.apiKeys.list(accountId);
    expect(listed.map((k) => [k.id, k.name, k.redacted_secret])).toEqual([[key.id, 'reporting', key.redacted_secret]]);
    expect(JSON.stringify(listed)).not.toContain(key.secret);

    const revoked = await sandbox.apiKeys.revoke(accountId, key.id);
    expect(revoked.id).toBe(key.id);
    expect((await fetch(`${sandbox.apiUrl}/transactions`, { headers })).status).toBe(401);
    expect(await sandbox.apiKeys.list(accountId)).toEqual([]);
    const again = await sandbox.apiKeys.revoke(accountId, key.id).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(SandboxRequestError);
    expect((again as SandboxRequestError).status).toBe(404);
  });

  it('bad scopes are refused with the envelope (SandboxRequestError 400)', async () => {
    const sandbox = await start();
    const err = await sandbox.apiKeys
      .create(sandbox.credentials.direct.account_id, { scopes: ['transactions:read' as ApiKeyScope] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxRequestError);
    expect((err as SandboxRequestError).status).toBe(400);
    expect((err as SandboxRequestError).body).toMatchObject({
      type: 'error',
      code: 'bad_request',
      details: [{ pointer: '/scopes/0', location: 'body' }],
    });
  });
});
