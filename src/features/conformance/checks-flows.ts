/** The conformance checks of sequences: pages and cursors, idempotency, refunds. */
import { randomUUID } from 'node:crypto';
import { expectError, expectStatus, expectThat, expectType, expectValue, fail, valueAt } from './client.js';
import type { Exchange } from './report.js';
import {
  UNKNOWN_ID,
  cardPayment,
  createPayment,
  cursorPath,
  expectNoRepeats,
  expectPage,
  expectRecordFields,
  expectSameAnswer,
  idOf,
  itemIds,
  succeededPayment,
  untilSucceeded,
  type Check,
} from './check-helpers.js';

export const FLOW_CHECKS: Check[] = [
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
        if (typeof next !== 'string')
          fail(pages.at(-1)!, '/body/next_cursor', 'string', 'no next_cursor before the 5 new records were walked');
        const page = await client.request('GET', cursorPath('/transactions', next, 2));
        expectPage(page, 2);
        pages.push(page);
      }
      expectNoRepeats(pages);
      const walked = pages.flatMap(itemIds).slice(0, 5);
      walked.forEach((id, i) => {
        const page = pages[Math.floor(i / 2)]!;
        expectThat(
          id === created[i],
          page,
          `/body/items/${i % 2}/id`,
          JSON.stringify(created[i]),
          `record ${i + 1} of the walk is ${id}, expected ${created[i]}`,
        );
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
      expectError(await client.request('GET', '/transactions?cursor=not-a-cursor'), 400, 'bad_request', [
        { pointer: '/cursor', location: 'query' },
      ]);
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
      expectSameAnswer(again, first);
    },
  },
  {
    name: 'idempotency.replay_after_change',
    rule: 'a replay after the record changed (a partial refund in between) answers the stored first answer, every field equal',
    async run(client) {
      const key = randomUUID();
      const body = cardPayment({ amount: 2200 });
      const first = await client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } });
      expectStatus(first, 201);
      expectType(first, '/body/id', 'string');
      await untilSucceeded(client, first);
      expectStatus(await client.request('POST', `/transactions/${idOf(first)}/refunds`, { body: { amount: 200 } }), 201);
      const again = await client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } });
      expectSameAnswer(again, first);
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
      const first = await client.request('POST', '/transactions', {
        body: cardPayment({ amount: 1100 }),
        headers: { 'idempotency-key': key },
      });
      expectStatus(first, 201);
      const other = await client.request('POST', '/transactions', {
        body: cardPayment({ amount: 1200 }),
        headers: { 'idempotency-key': key },
      });
      expectError(other, 400, 'bad_request');
      const retry = await client.request('POST', '/transactions', {
        body: cardPayment({ amount: 1200 }),
        headers: { 'idempotency-key': key },
      });
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
      expectStatus(
        await client.request('POST', '/transactions', {
          body: cardPayment(),
          headers: { 'idempotency-key': randomUUID() + 'k'.repeat(219) },
        }),
        201,
      );
      expectError(
        await client.request('POST', '/transactions', {
          body: cardPayment(),
          headers: { 'idempotency-key': randomUUID() + 'k'.repeat(220) },
        }),
        400,
        'bad_request',
      );
    },
  },
  {
    name: 'idempotency.concurrent_request',
    rule: 'concurrent requests with one key create one record: the others get 409 concurrent_request or its replay',
    async run(client) {
      const key = randomUUID();
      const body = cardPayment();
      const answers = await Promise.all(
        [0, 1, 2].map(() => client.request('POST', '/transactions', { body, headers: { 'idempotency-key': key } })),
      );
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
      const first = await client.request('POST', `/transactions/${idOf(tx)}/refunds`, {
        body: { amount: 100 },
        headers: { 'idempotency-key': key },
      });
      expectStatus(first, 201);
      const again = await client.request('POST', `/transactions/${idOf(tx)}/refunds`, {
        body: { amount: 100 },
        headers: { 'idempotency-key': key },
      });
      expectStatus(again, 201);
      expectValue(again, '/body/id', idOf(first));
      expectSameAnswer(again, first);
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
      expectError(await client.request('POST', `/transactions/${idOf(tx)}/refunds`, { body: { amount: 1501 } }), 400, 'bad_request', [
        { pointer: '/amount', location: 'body' },
      ]);
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
