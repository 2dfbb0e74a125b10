/** The conformance checks of single requests: transactions, the error envelope, authentication. */
import { randomUUID } from 'node:crypto';
import { expectError, expectStatus, expectThat, expectValue, valueAt } from './client.js';
import {
  UNKNOWN_ID,
  cardPayment,
  createPayment,
  expectPage,
  expectRecordFields,
  idOf,
  succeededPayment,
  type Check,
} from './check-helpers.js';

export const REQUEST_CHECKS: Check[] = [
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
      expectError(await client.request('POST', '/transactions', { body: cardPayment({ amount: '10.50' }) }), 400, 'bad_request', [
        { pointer: '/amount', location: 'body' },
      ]);
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
      expectThat(
        details.some((d) => d.location === 'header'),
        ex,
        '/body/details',
        'a detail at location header',
        'no detail at location header',
      );
    },
  },
  // ---- authentication and permission
  {
    name: 'auth.missing_bearer',
    rule: 'a request without Authorization is 401 unauthorized',
    async run(client) {
      expectError(
        await client.request('GET', '/transactions', { auth: { 'x-merchant-account-id': client.target.accountId } }),
        401,
        'unauthorized',
      );
    },
  },
  {
    name: 'auth.unknown_api_key',
    rule: 'an unknown sk_test_ key is 401 unauthorized',
    async run(client) {
      expectError(
        await client.request('GET', '/transactions', {
          auth: { authorization: `Bearer sk_test_${randomUUID().replace(/-/g, '')}`, 'x-merchant-account-id': client.target.accountId },
        }),
        401,
        'unauthorized',
      );
    },
  },
  {
    name: 'auth.malformed_jwt',
    rule: 'a bearer JWT that does not verify is 401 unauthorized',
    async run(client) {
      const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
      const token = `${part({ alg: 'RS256', typ: 'JWT', kid: 'unknown-kid' })}.${part({ scopes: ['*.read'], iat: 0, exp: 4102444800 })}.c2lnbmF0dXJl`;
      expectError(
        await client.request('GET', '/transactions', {
          auth: { authorization: `Bearer ${token}`, 'x-merchant-account-id': client.target.accountId },
        }),
        401,
        'unauthorized',
      );
    },
  },
  {
    name: 'auth.live_key_refused',
    rule: 'a test environment refuses an sk_live_ key with 401 unauthorized',
    async run(client) {
      expectError(
        await client.request('GET', '/transactions', {
          auth: { authorization: 'Bearer sk_live_0000000000000000', 'x-merchant-account-id': client.target.accountId },
        }),
        401,
        'unauthorized',
      );
    },
  },
  {
    name: 'auth.foreign_account_forbidden',
    rule: 'a valid key with an account it does not belong to is 403 forbidden',
    async run(client) {
      expectError(
        await client.request('GET', '/transactions', { headers: { 'x-merchant-account-id': `acc_${randomUUID().slice(0, 8)}` } }),
        403,
        'forbidden',
      );
    },
  },
  {
    name: 'auth.header_names_case_insensitive',
    rule: 'header names are case-insensitive: X-MERCHANT-ACCOUNT-ID in capitals works',
    async run(client) {
      const ex = await client.request('GET', '/transactions?limit=1', {
        auth: { Authorization: `Bearer ${client.target.apiKey}`, 'X-MERCHANT-ACCOUNT-ID': client.target.accountId },
      });
      expectPage(ex, 1);
    },
  },
];
