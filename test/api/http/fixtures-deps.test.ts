/**
 * Fixtures applied through their narrow ports (the fixtures feature's `deps`: queries, the creating services,
 * the unit of work and the clock), not the whole app: a hand-written buyer goes through the
 * domain's `MerchantAccounts.createBuyer`, and the objects show the base URL of the moment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../../src/features/fixtures/apply.js';
import { CHECKOUT, headers, testApp } from '../../support/app.js';

let apps: ReturnType<typeof testApp>[] = [];
afterEach(async () => {
  for (const a of apps) await a.lifecycle.close();
  apps = [];
});

describe('fixtures through FixtureDeps', () => {
  it('creates a buyer and a settled checkout payment; the API lists the buyer and shows the payment', async () => {
    const a = testApp();
    apps.push(a);
    const deps = a.features.fixtures.deps;
    a.core.baseUrl = 'http://sandbox.test:4010';
    const objects = (await loadFixtures(deps, [
      {
        source: 'test',
        document: {
          fixtures: [
            { name: 'bo', account: 'checkout', create: 'buyer', body: { display_name: 'Bo Fixture', external_identifier: 'bo-1' } },
            {
              name: 'pay',
              account: 'checkout',
              create: 'transaction',
              body: { amount: 1050, currency: 'USD', external_identifier: 'order-1', return_url: 'https://shop.example/return' },
              then: 'settle',
            },
          ],
        },
      },
    ])) as Record<string, Record<string, unknown>>;
    expect(objects.bo).toMatchObject({ type: 'buyer', display_name: 'Bo Fixture', external_identifier: 'bo-1' });
    expect(objects.pay).toMatchObject({ status: 'SUCCEEDED', payment_url: `http://sandbox.test:4010/pay/${objects.pay!.id as string}` });
    const buyers = (await (await a.app.request('/v4/buyers?limit=100', { headers: headers(CHECKOUT) })).json()) as {
      items: { id: string }[];
    };
    expect(buyers.items.map((b) => b.id)).toContain(objects.bo!.id);
  });
});
