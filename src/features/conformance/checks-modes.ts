/**
 * The conformance checks that need more than the direct account: a checkout-mode account of the
 * same server (create, read, pages, the mode's rules) and a restricted key of the direct account
 * that may read transactions but not write them (scope failures). Each is skipped when what it
 * needs was not given.
 */
import { randomUUID } from 'node:crypto';
import { Client, expectError, expectStatus, expectThat, expectType, expectValue, valueAt } from './client.js';
import type { Exchange } from './report.js';
import {
  cardPayment,
  createPayment,
  cursorPath,
  expectNoRepeats,
  expectPage,
  expectRecordFields,
  idOf,
  itemIds,
  succeededPayment,
  type Check,
} from './check-helpers.js';

/** The spec's transaction body (its overview sample): no card data, no browser_info. */
export function checkoutPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 2050,
    currency: 'USD',
    description: 'conformance check (checkout)',
    customer: { email: 'conformance@example.com', name: 'Conformance Check' },
    return_url: 'https://merchant.example.com/return',
    cancel_url: 'https://merchant.example.com/cancel',
    ...overrides,
  };
}

async function createCheckoutPayment(client: Client, overrides: Record<string, unknown> = {}): Promise<Exchange> {
  const ex = await client.request('POST', '/transactions', { body: checkoutPayment(overrides), auth: client.checkoutCredentials() });
  expectStatus(ex, 201);
  expectType(ex, '/body/id', 'string');
  return ex;
}

/** The payment page's address: an absolute http(s) URL. */
function expectPaymentUrl(ex: Exchange, pointer: string): void {
  expectType(ex, pointer, 'string');
  const url = valueAt(ex.response, pointer) as string;
  expectThat(
    URL.canParse(url) && /^https?:$/.test(new URL(url).protocol),
    ex,
    pointer,
    'an absolute http(s) URL',
    `${pointer} is not an absolute http(s) URL`,
  );
}

export const CHECKOUT_CHECKS: Check[] = [
  {
    name: 'checkout.create',
    rule: "POST /transactions with the spec's checkout body (no card, no browser_info) answers 201, PENDING, with a payment_url",
    needs: 'checkout',
    async run(client) {
      const ex = await createCheckoutPayment(client);
      expectValue(ex, '/body/amount', 2050);
      expectValue(ex, '/body/currency', 'USD');
      expectRecordFields(ex, '/body');
      expectValue(ex, '/body/status', 'PENDING');
      expectPaymentUrl(ex, '/body/payment_url');
    },
  },
  {
    name: 'checkout.read_back',
    rule: 'GET /transactions/{id} of a checkout payment answers the record, still PENDING (it waits for the customer), same payment_url',
    needs: 'checkout',
    async run(client) {
      const created = await createCheckoutPayment(client, { amount: 2345 });
      const read = await client.request('GET', `/transactions/${idOf(created)}`, { auth: client.checkoutCredentials() });
      expectStatus(read, 200);
      expectValue(read, '/body/id', idOf(created));
      expectValue(read, '/body/amount', 2345);
      expectRecordFields(read, '/body');
      expectValue(read, '/body/status', 'PENDING');
      expectPaymentUrl(read, '/body/payment_url');
      const atCreate = valueAt(created.response, '/body/payment_url');
      if (typeof atCreate === 'string') expectValue(read, '/body/payment_url', atCreate);
    },
  },
  {
    name: 'checkout.page',
    rule: "a checkout account's GET /transactions pages its payments newest first, each with its payment_url, none twice",
    needs: 'checkout',
    async run(client) {
      const created: string[] = [];
      for (let i = 0; i < 3; i += 1) created.unshift(idOf(await createCheckoutPayment(client)));
      const first = await client.request('GET', '/transactions?limit=2', { auth: client.checkoutCredentials() });
      expectPage(first, 2);
      expectValue(first, '/body/items/0/id', created[0]);
      expectValue(first, '/body/items/1/id', created[1]);
      expectPaymentUrl(first, '/body/items/0/payment_url');
      expectType(first, '/body/next_cursor', 'string');
      const second = await client.request('GET', cursorPath('/transactions', valueAt(first.response, '/body/next_cursor'), 2), {
        auth: client.checkoutCredentials(),
      });
      expectPage(second, 2);
      expectValue(second, '/body/items/0/id', created[2]);
      expectNoRepeats([first, second]);
    },
  },
  {
    name: 'checkout.accounts_isolated',
    rule: "an account never sees another's payments: a direct payment is 404 not_found for the checkout account and not in its list",
    needs: 'checkout',
    async run(client) {
      const direct = await createPayment(client);
      const read = await client.request('GET', `/transactions/${idOf(direct)}`, { auth: client.checkoutCredentials() });
      expectError(read, 404, 'not_found');
      const list = await client.request('GET', '/transactions?limit=20', { auth: client.checkoutCredentials() });
      expectPage(list, 20);
      const at = itemIds(list).indexOf(idOf(direct));
      expectThat(
        at < 0,
        list,
        `/body/items/${at}/id`,
        "only the checkout account's payments",
        'the direct payment is in the checkout list',
      );
    },
  },
  {
    name: 'checkout.card_data_refused',
    rule: 'a checkout-mode request carries no card data: a card number is 400 bad_request with a detail at /payment_method/number',
    needs: 'checkout',
    async run(client) {
      const card = cardPayment().payment_method;
      const ex = await client.request('POST', '/transactions', {
        body: checkoutPayment({ payment_method: card }),
        auth: client.checkoutCredentials(),
      });
      expectError(ex, 400, 'bad_request', [{ pointer: '/payment_method/number', location: 'body' }]);
    },
  },
  {
    name: 'checkout.return_url_required',
    rule: 'a checkout-mode payment needs return_url: without it, 400 bad_request with a detail at location body pointing to /return_url',
    needs: 'checkout',
    async run(client) {
      const body = checkoutPayment();
      delete body.return_url;
      const ex = await client.request('POST', '/transactions', { body, auth: client.checkoutCredentials() });
      expectError(ex, 400, 'bad_request', [{ pointer: '/return_url', location: 'body' }]);
    },
  },
];

export const SCOPE_CHECKS: Check[] = [
  {
    name: 'scopes.restricted_key_reads',
    rule: 'a restricted key is a valid token: GET /transactions within its scopes answers the page',
    needs: 'restricted_key',
    async run(client) {
      expectPage(await client.request('GET', '/transactions?limit=2', { auth: client.restrictedCredentials() }), 2);
    },
  },
  {
    name: 'scopes.create_without_scope_forbidden',
    rule: "a valid key without the operation's scope is 403 forbidden: POST /transactions with a read-only key creates nothing",
    needs: 'restricted_key',
    async run(client) {
      const reference = `conformance-${randomUUID().slice(0, 8)}`;
      const ex = await client.request('POST', '/transactions', {
        body: cardPayment({ external_identifier: reference }),
        auth: client.restrictedCredentials(),
      });
      expectError(ex, 403, 'forbidden');
      const list = await client.request('GET', '/transactions?limit=5');
      expectPage(list, 5);
      const items = (valueAt(list.response, '/body/items') as { external_identifier?: unknown }[]) ?? [];
      const at = items.findIndex((item) => item.external_identifier === reference);
      expectThat(
        at < 0,
        list,
        `/body/items/${at}/external_identifier`,
        'no payment of the refused request',
        'the refused request created a payment',
      );
    },
  },
  {
    name: 'scopes.refund_without_scope_forbidden',
    rule: 'POST /transactions/{id}/refunds with a key without refunds.write is 403 forbidden, and nothing is refunded',
    needs: 'restricted_key',
    async run(client) {
      const tx = await succeededPayment(client, 1800);
      const ex = await client.request('POST', `/transactions/${idOf(tx)}/refunds`, {
        body: { amount: 100 },
        auth: client.restrictedCredentials(),
      });
      expectError(ex, 403, 'forbidden');
      expectValue(await client.request('GET', `/transactions/${idOf(tx)}`), '/body/refunded_amount', 0);
    },
  },
  {
    name: 'scopes.checked_before_validation',
    rule: 'bad_request is for authorized requests only: an invalid body sent with a key without the scope is 403 forbidden, not 400',
    needs: 'restricted_key',
    async run(client) {
      const body = cardPayment();
      delete body.amount;
      expectError(await client.request('POST', '/transactions', { body, auth: client.restrictedCredentials() }), 403, 'forbidden');
    },
  },
];
