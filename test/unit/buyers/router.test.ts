/**
 * The buyer router alone, on a fake of its one port (`BuyerQueries.page`) and the real guard
 * over fake accounts and restricted keys: what it asks the port (the account, the filters)
 * and what a merchant gets back, at /v4/buyers and at the bare /buyers mount.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../src/core/auth/api-keys.js';
import type { Account } from '../../../src/features/accounts/entities.js';
import type { Buyer } from '../../../src/features/buyers/entities.js';
import type { BuyerFilters } from '../../../src/features/buyers/ports.js';
import { apiAuth } from '../../../src/core/http/auth.js';
import { securedBy } from '../../../src/core/http/pipeline.js';
import { errorHandler } from '../../../src/core/http/errors.js';
import { buyerRoutes } from '../../../src/features/buyers/buyers.api.js';

/** Unexpected errors answer 500 with the envelope; these tests do not log them. */
const onError = errorHandler({ error: () => undefined });

const ACCOUNT: Account = {
  id: 'acc_a',
  name: 'a',
  mode: 'direct',
  api_key: 'sk_test_a',
  jwt_kid: 'kid_a',
  jwt_private_key_pem: '',
  jwt_public_key_pem: '',
  created_at: 0,
};
const RESTRICTED: ApiKey = {
  id: 'key_1',
  account_id: ACCOUNT.id,
  name: null,
  scopes: ['transactions.read'],
  secret_hash: '',
  secret_last4: 'r_01',
  created_at: 0,
};
const buyer = (id: string, name: string): Buyer => ({
  seq: 1,
  id,
  account_id: ACCOUNT.id,
  display_name: name,
  external_identifier: `ext-${id}`,
  created_at: 0,
  updated_at: 0,
});

function mount() {
  const asked: { accountId: string; filters: BuyerFilters | undefined }[] = [];
  const auth = apiAuth({
    accounts: { byApiKey: (key) => (key === ACCOUNT.api_key ? ACCOUNT : undefined), byKid: () => undefined },
    apiKeys: { authenticate: (secret) => (secret === 'sk_test_restricted_01' ? { account: ACCOUNT, key: RESTRICTED } : undefined) },
  });
  const secured = securedBy(auth, { bodyLimit: 1024 });
  const buyers = {
    page: (accountId: string, _req: unknown, filters?: BuyerFilters) => {
      asked.push({ accountId, filters });
      return { rows: [buyer('b1', 'John Doe')], nextKey: null, previousKey: null };
    },
  };
  const app = new Hono();
  app.onError(onError);
  app.route('/v4', buyerRoutes({ buyers, secured }));
  app.route('/', buyerRoutes({ buyers, secured }, 'listBuyersWithoutPrefix'));
  return { app, asked };
}

const as = (key: string) => ({ authorization: `Bearer ${key}`, 'x-merchant-account-id': ACCOUNT.id });

describe('the buyer router with a fake port', () => {
  it("asks the port for the caller's buyers with the filters given (an empty one is none), on both mounts", async () => {
    const { app, asked } = mount();
    const prefixed = await app.request('/v4/buyers?search=john&external_identifier=', { headers: as(ACCOUNT.api_key) });
    expect(prefixed.status).toBe(200);
    expect(((await prefixed.json()) as { items: { id: string; display_name: string }[] }).items).toMatchObject([
      { id: 'b1', display_name: 'John Doe' },
    ]);
    expect((await app.request('/buyers', { headers: as(ACCOUNT.api_key) })).status).toBe(200);
    expect(asked).toEqual([
      { accountId: ACCOUNT.id, filters: { search: 'john' } },
      { accountId: ACCOUNT.id, filters: {} },
    ]);
  });

  it('refuses a restricted key without buyers.read with a 403 naming the key, before the port is asked', async () => {
    const { app, asked } = mount();
    const res = await app.request('/v4/buyers', { headers: as('sk_test_restricted_01') });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toContain('This restricted API key (key_1) lacks the buyers.read scope');
    expect(asked).toEqual([]);
  });
});
