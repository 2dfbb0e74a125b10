/**
 * The sandbox's behaviour checks, written once and run against any server through its `/v4`
 * base only: each has a stable name and the one-line rule it checks.
 */
import { randomUUID } from 'node:crypto';
import { Client, expectError, expectStatus, expectThat, expectType, expectValue, fail, valueAt } from './client.js';
import type { Exchange } from './report.js';

export interface Check {
  name: string;
  rule: string;
  run(client: Client): Promise<void>;
}

/** The spec's success card: a direct card payment with it reaches SUCCEEDED without a customer. */
const SUCCESS_CARD = '4242424242424242';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

function cardPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 1050,
    currency: 'USD',
    description: 'conformance check',
    customer: { email: 'conformance@example.com', name: 'Conformance Check' },
    external_identifier: `conformance-${randomUUID().slice(0, 8)}`,
    payment_method: { type: 'card', number: SUCCESS_CARD, expiration_date: '12/30', security_code: '123' },
    browser_info: { javascript_enabled: true, java_enabled: false, language: 'en-US', color_depth: 24, screen_height: 800, screen_width: 1280, time_zone_offset: 0, user_agent: 'payment-sandbox conformance', user_device: 'desktop', accept_header: 'application/json' },
    ...overrides,
  };
}

const idOf = (ex: Exchange): string => String(valueAt(ex.response, '/body/id'));
const itemIds = (ex: Exchange): string[] => ((valueAt(ex.response, '/body/items') as { id?: unknown }[] | undefined) ?? []).map((i) => String(i.id));

async function createPayment(client: Client, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Exchange> {
  const ex = await client.request('POST', '/transactions', { body: cardPayment(overrides), headers });
  expectStatus(ex, 201);
  expectType(ex, '/body/id', 'string');
  return ex;
}

/** Creates a payment and waits (up to 10 s) until it is SUCCEEDED. */
async function succeededPayment(client: Client, amount = 1050): Promise<Exchange> {
  const created = await createPayment(client, { amount });
  let last = created;
  for (let i = 0; i < 50; i += 1) {
    if (valueAt(last.response, '/body/status') === 'SUCCEEDED') return last;
    await new Promise((r) => setTimeout(r, 200));
    last = await client.request('GET', `/transactions/${idOf(created)}`);
  }
  return fail(last, '/body/status', '"SUCCEEDED"', 'a direct card payment with the success card did not reach SUCCEEDED within 10 s');
}

function expectPage(ex: Exchange, limit: number): void {
  expectStatus(ex, 200);
  expectType(ex, '/body/items', 'array');
  expectValue(ex, '/body/limit', limit);
  expectType(ex, '/body/next_cursor', 'string', 'null');
  expectType(ex, '/body/previous_cursor', 'string', 'null');
  const n = (valueAt(ex.response, '/body/items') as unknown[]).length;
  expectThat(n <= limit, ex, '/body/items', `at most ${limit} items`, `the page holds ${n} items, more than limit ${limit}`);
}

function expectNoRepeats(pages: Exchange[]): void {
  const seen = new Set<string>();
  for (const page of pages) {
    itemIds(page).forEach((id, i) => {
      expectThat(!seen.has(id), page, `/body/items/${i}/id`, 'a record not on an earlier page', `record ${id} repeats a record of an earlier page`);
      seen.add(id);
    });
  }
}

const cursorPath = (list: string, cursor: unknown, limit: number): string => `${list}?limit=${limit}&cursor=${encodeURIComponent(String(cursor))}`;

function expectRecordFields(ex: Exchange, base: string): void {
  expectType(ex, `${base}/id`, 'string');
  expectType(ex, `${base}/amount`, 'integer');
  expectType(ex, `${base}/currency`, 'string');
  expectType(ex, `${base}/status`, 'string');
  expectType(ex, `${base}/created_at`, 'string');
  const created = valueAt(ex.response, `${base}/created_at`);
  expectThat(typeof created === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/.test(created), ex, `${base}/created_at`, 'ISO 8601 with milliseconds and offset', 'created_at is not ISO 8601 with milliseconds and offset');
}

export const CHECKS: Check[] = [
  // ---- transactions
  {
    name: 'transactions.create_direct_card',
    rule: 'POST /transactions with a card and browser_info answers 201 with the transaction record',
    async run(client) {
      const ex = await createPayment(client);
      expectValue(ex, '/body/amount', 1050);
      expectValue(ex, '/body/currency', 'USD');
      expectRecordFields(ex, '/body');
    },
  },
  {
    name: 'transactions.success_card_succeeds',
    rule: 'a direct card payment with the success card reaches SUCCEEDED without a customer',
    async run(client) {
      await succeededPayment(client);
    },
  },
  {
    name: 'transactions.read_back',
    rule: 'GET /transactions/{id} answers 200 with the record that POST created',
    async run(client) {
      const created = await createPayment(client, { amount: 1234 });
      const read = await client.request('GET', `/transactions/${idOf(created)}`);
      expectStatus(read, 200);
      expectValue(read, '/body/id', idOf(created));
      expectValue(read, '/body/amount', 1234);
      expectValue(read, '/body/currency', 'USD');
      expectRecordFields(read, '/body');
    },
  },
  {
    name: 'transactions.read_unknown_not_found',
    rule: 'GET /transactions/{id} of an unknown id answers 404 not_found',
    async run(client) {
      expectError(await client.request('GET', `/transactions/${UNKNOWN_ID}`), 404, 'not_found');
    },
  },
  {
    name: 'transactions.method_not_allowed',
    rule: 'a method the path does not have answers 405 method_not_allowed',
    async run(client) {
      expectError(await client.request('DELETE', '/transactions'), 405, 'method_not_allowed');
    },
  },
  // ---- the error envelope and its details
  {
    name: 'errors.body_missing_field',
    rule: 'a missing required body field is 400 bad_request with a detail at location body pointing to it',
    async run(client) {
      const body = cardPayment();
      delete body.amount;
      expectError(await client.request('POST', '/transactions', { body }), 400, 'bad_request', [{ pointer: '/amount', location: 'body' }]);
    },
  },
  {
    name: 'errors.body_wrong_type',
    rule: 'a body field of the wrong JSON type is 400 bad_request with a detail at location body pointing to it',
    async run(client) {
      expectError(await client.request('POST', '/transactions', { body: cardPayment({ amount: '10.50' }) }), 400, 'bad_request', [{ pointer: '/amount', location: 'body' }]);
    },
  },
  {
    name: 'errors.body_malformed_json',
    rule: 'a body that is not JSON is 400 bad_request in the error envelope',
    async run(client) {
      expectError(await client.request('POST', '/transactions', { rawBody: '{"amount": ' }), 400, 'bad_request');
    },
  },
  {
    name: 'errors.path_not_uuid',
    rule: 'a path id that is not a UUID is 400 bad_request with a detail at location path, or 404 not_found',
    async run(client) {
      const ex = await client.request('GET', '/transactions/not-a-uuid');
      if (ex.response.status === 404) expectError(ex, 404, 'not_found');
      else expectError(ex, 400, 'bad_request', [{ pointer: '/transaction_id', location: 'path' }]);
    },
  },
  {
    name: 'errors.query_bad_limit',
    rule: 'limit=0 is 400 bad_request with a detail at location query pointing to /limit',
    async run(client) {
      expectError(await client.request('GET', '/transactions?limit=0'), 400, 'bad_request', [{ pointer: '/limit', location: 'query' }]);
    },
  },
  {
    name: 'errors.header_missing_account',
    rule: 'a request without X-MERCHANT-ACCOUNT-ID is 400 bad_request with a detail at location header',
    async run(client) {
      const ex = await client.request('GET', '/transactions', { auth: { authorization: client.credentials().authorization! } });
      expectError(ex, 400, 'bad_request');
      const details = (valueAt(ex.response, '/body/details') as { location?: unknown }[] | undefined) ?? [];
      expectThat(details.some((d) => d.location === 'header'), ex, '/body/details', 'a detail at location header', 'no detail at location header');
    },
  },
  // ---- authentication and permission
  {
    name: 'auth.missing_bearer',
    rule: 'a request without Authorization is 401 unauthorized',
    async run(client) {
      expectError(await client.request('GET', '/transactions', { auth: { 'x-merchant-account-id': client.target.accountId } }), 401, 'unauthorized');
    },
  },
  {
    name: 'auth.unknown_api_key',
    rule: 'an unknown sk_test_ key is 401 unauthorized',
    async run(client) {
      expectError(await client.request('GET', '/transactions', { auth: { authorization: `Bearer sk_test_${randomUUID().replace(/-/g, '')}`, 'x-merchant-account-id': client.target.accountId } }), 401, 'unauthorized');
    },
  },
  {
    name: 'auth.malformed_jwt',
    rule: 'a bearer JWT that does not verify is 401 unauthorized',
    async run(client) {
      const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
      const token = `${part({ alg: 'RS256', typ: 'JWT', kid: 'unknown-kid' })}.${part({ scopes: ['*.read'], iat: 0, exp: 4102444800 })}.c2lnbmF0dXJl`;
      expectError(await client.request('GET', '/transactions', { auth: { authorization: `Bearer ${token}`, 'x-merchant-account-id': client.target.accountId } }), 401, 'unauthorized');
    },
  },
  {
    name: 'auth.live_key_refused',
    rule: 'a test environment refuses an sk_live_ key with 401 unauthorized',
    async run(client) {
      expectError(await client.request('GET', '/transactions', { auth: { authorization: 'Bearer sk_live_0000000000000000', 'x-merchant-account-id': client.target.accountId } }), 401, 'unauthorized');
    },
  },
  {
    name: 'auth.foreign_account_forbidden',
    rule: 'a valid key with an account it does not belong to is 403 forbidden',
    async run(client) {
      expectError(await client.request('GET', '/transactions', { headers: { 'x-merchant-account-id': `acc_${randomUUID().slice(0, 8)}` } }), 403, 'forbidden');
    },
  },
  {
    name: 'auth.header_names_case_insensitive',
    rule: 'header names are case-insensitive: X-MERCHANT-ACCOUNT-ID in capitals works',
    async run(client) {
      const ex = await client.request('GET', '/transactions?limit=1', { auth: { Authorization: `Bearer ${client.target.apiKey}`, 'X-MERCHANT-ACCOUNT-ID': client.target.accountId } });
      expectPage(ex, 1);
    },
  },
  // ---- pages and cursors
  {
    name: 'pages.envelope',
    rule: 'GET /transactions answers the page envelope: items, limit, next_cursor, previous_cursor',
    async run(client) {
      await createPayment(client);
      const ex = await client.request('GET', '/transactions');
      expectPage(ex, 20);
      expectRecordFields(ex, '/body/items/0');
    },
  },
  {
    name: 'pages.limit_respected',
    rule: 'limit sets the page size: limit=2 answers at most 2 items and limit 2',
    async run(client) {
      await createPayment(client);
      await createPayment(client);
      await createPayment(client);
      const ex = await client.request('GET', '/transactions?limit=2');
      expectPage(ex, 2);
      expectThat(itemIds(ex).length === 2, ex, '/body/items', '2 items', `the page holds ${itemIds(ex).length} items`);
      expectType(ex, '/body/next_cursor', 'string');
      expectValue(ex, '/body/previous_cursor', null);
    },
  },
  {
    name: 'pages.newest_first',
    rule: 'lists are newest first: the payment just created is the first item',
    async run(client) {
      const created = await createPayment(client);
      const ex = await client.request('GET', '/transactions?limit=5');
      expectPage(ex, 5);
      expectValue(ex, '/body/items/0/id', idOf(created));
    },
  },
  {
    name: 'pages.forward',
    rule: 'following next_cursor walks the records newest first, none twice, the created ones in order',
    async run(client) {
      const created: string[] = [];
      for (let i = 0; i < 5; i += 1) created.unshift(idOf(await createPayment(client)));
      const pages: Exchange[] = [await client.request('GET', '/transactions?limit=2')];
      expectPage(pages[0]!, 2);
      while (pages.length < 3) {
        const next = valueAt(pages.at(-1)!.response, '/body/next_cursor');
        if (typeof next !== 'string') fail(pages.at(-1)!, '/body/next_cursor', 'string', 'no next_cursor before the 5 new records were walked');
        const page = await client.request('GET', cursorPath('/transactions', next, 2));
        expectPage(page, 2);
        pages.push(page);
      }
      expectNoRepeats(pages);
      const walked = pages.flatMap(itemIds).slice(0, 5);
      walked.forEach((id, i) => {
        const page = pages[Math.floor(i / 2)]!;
        expectThat(id === created[i], page, `/body/items/${i % 2}/id`, JSON.stringify(created[i]), `record ${i + 1} of the walk is ${id}, expected ${created[i]}`);
      });
    },
  },
  {
    name: 'pages.backward',
    rule: 'previous_cursor of the second page leads back to the first page',
    async run(client) {
      for (let i = 0; i < 3; i += 1) await createPayment(client);
      const first = await client.request('GET', '/transactions?limit=2');
      expectPage(first, 2);
      const second = await client.request('GET', cursorPath('/transactions', valueAt(first.response, '/body/next_cursor'), 2));
      expectPage(second, 2);
      expectType(second, '/body/previous_cursor', 'string');
      const back = await client.request('GET', cursorPath('/transactions', valueAt(second.response, '/body/previous_cursor'), 2));
      expectPage(back, 2);
      itemIds(first).forEach((id, i) => expectValue(back, `/body/items/${i}/id`, id));
    },
  },
  {
    name: 'pages.stable_under_inserts',
    rule: 'a record created while paging does not shift the next page: no record repeats or is skipped',
    async run(client) {
      for (let i = 0; i < 4; i += 1) await createPayment(client);
      const first = await client.request('GET', '/transactions?limit=2');
      expectPage(first, 2);
      const reference = await client.request('GET', '/transactions?limit=4');
      await createPayment(client);
      const second = await client.request('GET', cursorPath('/transactions', valueAt(first.response, '/body/next_cursor'), 2));
      expectPage(second, 2);
      expectNoRepeats([first, second]);
      const expected = itemIds(reference).slice(2, 4);
      expected.forEach((id, i) => expectValue(second, `/body/items/${i}/id`, id));
    },
  },
  {
    name: 'pages.bad_cursor',
    rule: 'a cursor the server did not issue is 400 bad_request with a detail at location query',
    async run(client) {
      expectError(await client.request('GET', '/transactions?cursor=not-a-cursor'), 400, 'bad_request', [{ pointer: '/cursor', location: 'query' }]);
    },
  },
  {
    name: 'pages.limit_above_maximum',
    rule: 'limit=101 is 400 bad_request with a detail at location query pointing to /limit',
    async run(client) {
      expectError(await client.request('GET', '/transactions?limit=101'), 400, 'bad_request', [{ pointer: '/limit', location: 'query' }]);
    },
  },
  {
    name: 'pages.limit_not_integer',
    rule: 'limit=abc is 400 bad_request with a detail at location query pointing to /limit',
    async run(client) {
      expectError(await client.request('GET', '/transactions?limit=abc'), 400, 'bad_request', [{ pointer: '/limit', location: 'query' }]);
    },
  },
  {
    name: 'buyers.page',
    rule: 'GET /buyers answers the page envelope; a buyer has id, type, display_name, external_identifier, created_at, updated_at',
    async run(client) {
      const ex = await client.request('GET', '/buyers?limit=2');
      expectPage(ex, 2);
      if (itemIds(ex).length === 0) return;
      expectType(ex, '/body/items/0/id', 'string');
      expectType(ex, '/body/items/0/type', 'string');
      expectType(ex, '/body/items/0/display_name', 'string');
      expectType(ex, '/body/items/0/external_identifier', 'string', 'null');
      expectType(ex, '/body/items/0/created_at', 'string');
      expectType(ex, '/body/items/0/updated_at', 'string');
    },
  },
  {
    name: 'buyers.forward',
    rule: 'following next_cursor through buyers repeats no buyer',
    async run(client) {
      const pages = [await client.request('GET', '/buyers?limit=3')];
      expectPage(pages[0]!, 3);
      for (let i = 0; i < 2; i += 1) {
        const next = valueAt(pages.at(-1)!.response, '/body/next_cursor');
        if (typeof next !== 'string') break;
        const page = await client.request('GET', cursorPath('/buyers', next, 3));
        expectPage(page, 3);
        pages.push(page);
      }
      expectNoRepeats(pages);
    },
  },
  {
    name: 'buyers.bad_limit',
    rule: 'GET /buyers?limit=0 is 400 bad_request with a detail at location query',
    async run(client) {
      expectError(await client.request('GET', '/buyers?limit=0'), 400, 'bad_request', [{ pointer: '/limit', location: 'query' }]);
    },
  },
  // ---- idempotency
  {
    name: 'idempotency.replay_same_body',
    rule: 'the same request with the same Idempotency-Key answers the stored status and body',
    async run(client) {
      const key = randomUUID();
      const body = cardPayment();
      const first = await client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } });
      expectStatus(first, 201);
      const again = await client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } });
      expectStatus(again, 201);
      expectValue(again, '/body/id', idOf(first));
      expectValue(again, '/body/created_at', valueAt(first.response, '/body/created_at'));
    },
  },
  {
    name: 'idempotency.replay_key_order_ignored',
    rule: 'the same JSON body with its keys in another order is the same request',
    async run(client) {
      const key = randomUUID();
      const body = cardPayment();
      const first = await client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } });
      expectStatus(first, 201);
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await client.request('POST', '/transactions', { body: reordered, headers: { 'idempotency-key': key } });
      expectStatus(again, 201);
      expectValue(again, '/body/id', idOf(first));
    },
  },
  {
    name: 'idempotency.key_in_use_other_body',
    rule: 'a key already used with another body is 400 bad_request, and unchanged retries get the same error',
    async run(client) {
      const key = randomUUID();
      const first = await client.request('POST', '/transactions', { body: cardPayment({ amount: 1100 }), headers: { 'idempotency-key': key } });
      expectStatus(first, 201);
      const other = await client.request('POST', '/transactions', { body: cardPayment({ amount: 1200 }), headers: { 'idempotency-key': key } });
      expectError(other, 400, 'bad_request');
      const retry = await client.request('POST', '/transactions', { body: cardPayment({ amount: 1200 }), headers: { 'idempotency-key': key } });
      expectError(retry, 400, 'bad_request');
    },
  },
  {
    name: 'idempotency.validation_failure_not_stored',
    rule: 'a request that fails validation stores nothing: the key can then be used for a valid request',
    async run(client) {
      const key = randomUUID();
      const bad = cardPayment();
      delete bad.currency;
      expectError(await client.request('POST', '/transactions', { body: bad, headers: { 'idempotency-key': key } }), 400, 'bad_request');
      const good = await client.request('POST', '/transactions', { body: cardPayment(), headers: { 'idempotency-key': key } });
      expectStatus(good, 201);
    },
  },
  {
    name: 'idempotency.key_length',
    rule: 'a key of 255 characters is accepted; one of 256 is 400 bad_request',
    async run(client) {
      expectStatus(await client.request('POST', '/transactions', { body: cardPayment(), headers: { 'idempotency-key': randomUUID() + 'k'.repeat(219) } }), 201);
      expectError(await client.request('POST', '/transactions', { body: cardPayment(), headers: { 'idempotency-key': randomUUID() + 'k'.repeat(220) } }), 400, 'bad_request');
    },
  },
  {
    name: 'idempotency.concurrent_request',
    rule: 'concurrent requests with one key create one record: the others get 409 concurrent_request or its replay',
    async run(client) {
      const key = randomUUID();
      const body = cardPayment();
      const answers = await Promise.all([0, 1, 2].map(() => client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } })));
      const ids = new Set<string>();
      for (const ex of answers) {
        if (ex.response.status === 409) expectError(ex, 409, 'concurrent_request');
        else {
          expectStatus(ex, 201);
          ids.add(idOf(ex));
        }
      }
      const last = answers.at(-1)!;
      expectThat(ids.size <= 1, last, '/body/id', 'one record id for one key', `one key created ${ids.size} records`);
      const retry = await client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } });
      expectStatus(retry, 201);
      if (ids.size === 1) expectValue(retry, '/body/id', [...ids][0]);
    },
  },
  {
    name: 'idempotency.refunds_replay',
    rule: 'POST /transactions/{id}/refunds replays the stored refund for the same key and body',
    async run(client) {
      const tx = await succeededPayment(client, 2000);
      const key = randomUUID();
      const first = await client.request('POST', `/transactions/${idOf(tx)}/refunds`, { body: { amount: 100 }, headers: { 'idempotency-key': key } });
      expectStatus(first, 201);
      const again = await client.request('POST', `/transactions/${idOf(tx)}/refunds`, { body: { amount: 100 }, headers: { 'idempotency-key': key } });
      expectStatus(again, 201);
      expectValue(again, '/body/id', idOf(first));
      const read = await client.request('GET', `/transactions/${idOf(tx)}`);
      expectValue(read, '/body/refunded_amount', 100);
    },
  },
  // ---- refunds
  {
    name: 'refunds.partial',
    rule: 'a partial refund of a SUCCEEDED payment is 201 with a refund record, and the payment keeps status with refunded_amount',
    async run(client) {
      const tx = await succeededPayment(client, 3000);
      const refund = await client.request('POST', `/transactions/${idOf(tx)}/refunds`, { body: { amount: 1000 } });
      expectStatus(refund, 201);
      expectType(refund, '/body/id', 'string');
      expectValue(refund, '/body/amount', 1000);
      expectValue(refund, '/body/transaction_id', idOf(tx));
      const read = await client.request('GET', `/transactions/${idOf(tx)}`);
      expectValue(read, '/body/status', 'SUCCEEDED');
      expectValue(read, '/body/refunded_amount', 1000);
    },
  },
  {
    name: 'refunds.full_remainder',
    rule: 'a refund without amount refunds the remainder',
    async run(client) {
      const tx = await succeededPayment(client, 2500);
      expectStatus(await client.request('POST', `/transactions/${idOf(tx)}/refunds`, { body: { amount: 500 } }), 201);
      const rest = await client.request('POST', `/transactions/${idOf(tx)}/refunds`, { body: {} });
      expectStatus(rest, 201);
      expectValue(rest, '/body/amount', 2000);
    },
  },
  {
    name: 'refunds.over_refund',
    rule: 'refunding more than is left is 400 bad_request with a detail pointing to /amount',
    async run(client) {
      const tx = await succeededPayment(client, 1500);
      expectError(await client.request('POST', `/transactions/${idOf(tx)}/refunds`, { body: { amount: 1501 } }), 400, 'bad_request', [{ pointer: '/amount', location: 'body' }]);
    },
  },
  {
    name: 'refunds.unknown_transaction',
    rule: 'a refund of an unknown transaction is 404 not_found',
    async run(client) {
      expectError(await client.request('POST', `/transactions/${UNKNOWN_ID}/refunds`, { body: { amount: 100 } }), 404, 'not_found');
    },
  },
];
