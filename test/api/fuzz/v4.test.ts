/**
 * Property-based tests of the /v4 API: generated bodies, headers, query strings, cursors and path ids for
 * every endpoint, valid and invalid. Never a 5xx; every 4xx is the envelope with pointers
 * that exist in the request; valid bodies create; an idempotent replay is byte-identical.
 * Through `createApp()` + `app.request()`; test/e2e/fuzz/over-http.test.ts repeats a sample
 * over a real socket.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES } from '../../../src/core/domain/money.js';
import { DIRECT, directPayment, headers, testApp } from '../../support/app.js';
import { directSubscription } from '../../support/subscriptions.js';
import {
  answerProblem,
  cursor,
  mutatedBody,
  params,
  paramsScaled,
  queryString,
  toQuery,
  type Json,
  type SentRequest,
} from '../../support/fuzz.js';

const { app } = testApp();

interface Answer {
  status: number;
  text: string;
}

async function send(method: string, path: string, req: SentRequest & { raw?: string }): Promise<Answer> {
  const init: RequestInit = { method, headers: req.headers ?? headers() };
  if (req.raw !== undefined) init.body = req.raw;
  else if (req.body !== undefined) init.body = JSON.stringify(req.body);
  const res = await app.request(path + toQuery(req.query ?? {}), init);
  return { status: res.status, text: await res.text() };
}

/** Sends and asserts the rules of every answer; returns it for further checks. */
async function sendChecked(method: string, path: string, req: SentRequest & { raw?: string }): Promise<Answer> {
  const a = await send(method, path, req);
  let body = req.body;
  if (req.raw !== undefined) {
    try {
      body = JSON.parse(req.raw) as unknown;
    } catch {
      body = undefined;
    }
  }
  const problem = answerProblem(a.status, a.text, { ...req, body });
  if (problem !== null)
    throw new Error(`${method} ${path}${toQuery(req.query ?? {})} ${req.raw ?? JSON.stringify(req.body) ?? ''}\n-> ${problem}`);
  return a;
}

const SUB_HEADERS = (): Record<string, string> => headers(DIRECT, { 'x-forwarded-for': '203.0.113.7' });

/** Currencies whose exponent keeps 1..99_999_999 minor units meaningful. */
const currency = fc.constantFrom(...CURRENCY_CODES);
const text = (max: number): fc.Arbitrary<string> => fc.string({ minLength: 1, maxLength: max });

/** Valid direct-mode payment bodies. */
const validPayment: fc.Arbitrary<Json> = fc
  .record({
    amount: fc.integer({ min: 1, max: 99_999_999 }),
    currency,
    description: fc.option(text(255), { nil: undefined }),
    external_identifier: fc.option(text(64), { nil: undefined }),
    metadata: fc.option(fc.dictionary(fc.stringMatching(/^[a-z_]{1,20}$/), fc.string({ maxLength: 30 }), { maxKeys: 5 }), {
      nil: undefined,
    }),
    name: fc.option(text(40), { nil: undefined }),
  })
  .map(({ name, ...r }) => {
    const body = directPayment({ amount: r.amount, currency: r.currency }) as Record<string, Json>;
    delete body.external_identifier;
    delete body.description;
    if (r.description !== undefined) body.description = r.description;
    if (r.external_identifier !== undefined) body.external_identifier = r.external_identifier;
    if (r.metadata !== undefined) body.metadata = r.metadata;
    if (name !== undefined) body.customer = { email: 'jane@example.com', name };
    return body;
  });

/** external_identifier is unique per subscription (a repeat is a 409 duplicate_record). */
let subscriptionCounter = 0;
const validSubscription: fc.Arbitrary<Json> = fc
  .record({
    amount: fc.integer({ min: 1, max: 99_999_999 }),
    planAmount: fc.integer({ min: 1, max: 99_999_999 }),
    interval: fc.constantFrom('day', 'week', 'month', 'year'),
    ext: text(64),
  })
  .map(
    (r) =>
      directSubscription({
        amount: r.amount,
        external_identifier: `${r.ext.slice(0, 50)}-${(subscriptionCounter += 1)}`,
        plan: { name: 'Gold', currency: 'USD', amount: r.planAmount, interval: r.interval },
      }) as Json,
  );

/** A printable-ASCII header value (what a fetch Request can carry). */
const headerValue = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
  fc.constantFrom('', 'Bearer ', `Bearer ${DIRECT.api_key}`, 'Bearer a.b.c', 'Basic eA==', DIRECT.account_id),
);

async function createPayment(amount = 1_000_000): Promise<string> {
  const a = await send('POST', '/v4/transactions', { body: directPayment({ amount, external_identifier: undefined }) });
  expect(a.status).toBe(201);
  return (JSON.parse(a.text) as { id: string }).id;
}

describe('/v4 properties', () => {
  it('POST /v4/transactions: valid bodies create (201, echoing amount and currency)', async () => {
    await fc.assert(
      fc.asyncProperty(validPayment, async (body) => {
        const a = await sendChecked('POST', '/v4/transactions', { body });
        expect(a.status, a.text).toBe(201);
        const tx = JSON.parse(a.text) as { id: string; amount: number; currency: string };
        const b = body as { amount: number; currency: string };
        expect([tx.amount, tx.currency]).toEqual([b.amount, b.currency]);
      }),
      params,
    );
  });

  it('POST /v4/transactions: mutated bodies never 5xx; 4xx are envelopes pointing into the body', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBody(validPayment), async (body) => void (await sendChecked('POST', '/v4/transactions', { body }))),
      params,
    );
  });

  it('POST /v4/transactions: raw bodies (not JSON, arrays, scalars, truncated JSON) are 400 envelopes', async () => {
    const raw = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      validPayment.chain((b) => fc.nat().map((n) => JSON.stringify(b).slice(0, n % JSON.stringify(b).length))),
    );
    await fc.assert(
      fc.asyncProperty(raw, async (r) => {
        const a = await sendChecked('POST', '/v4/transactions', { raw: r });
        expect(a.status === 201 || (a.status >= 400 && a.status < 500), a.text).toBe(true);
      }),
      params,
    );
  });

  it('POST /v4/transactions: an idempotent replay of any body (valid or not) is byte-identical', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBody(validPayment), fc.uuid(), async (body, key) => {
        const req = { body, headers: headers(DIRECT, { 'idempotency-key': key }) };
        const first = await sendChecked('POST', '/v4/transactions', req);
        const second = await sendChecked('POST', '/v4/transactions', req);
        expect(second.status).toBe(first.status);
        expect(second.text).toBe(first.text);
      }),
      params,
    );
  });

  it('POST /v4/transactions: generated headers (authorization, account, content type, idempotency key) never 5xx', async () => {
    const hdrs = fc.record(
      {
        authorization: headerValue,
        'x-merchant-account-id': headerValue,
        'content-type': fc.oneof(
          headerValue,
          fc.constantFrom(
            'application/json',
            'application/json;',
            'application/json; charset=utf-8',
            'text/plain',
            'application/merge-patch+json',
          ),
        ),
        'idempotency-key': fc.string({ unit: 'grapheme-ascii', maxLength: 300 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(hdrs, fc.boolean(), async (h, withAuth) => {
        const base = withAuth ? headers() : {};
        await sendChecked('POST', '/v4/transactions', {
          body: directPayment({ external_identifier: undefined }),
          headers: { ...base, ...h },
        });
      }),
      params,
    );
  });

  it('POST /v4/transactions/{id}/refunds: mutated refund bodies never 5xx and never refund more than was paid', async () => {
    const refund: fc.Arbitrary<Json> = fc.record(
      { amount: fc.integer({ min: 1, max: 600_000 }), reason: text(255), external_identifier: text(64) },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(mutatedBody(refund), { minLength: 1, maxLength: 3 }), async (bodies) => {
        const id = await createPayment();
        await app.request(`/_sandbox/transactions/${id}/settle`, { method: 'POST' });
        let refunded = 0;
        for (const body of bodies) {
          const a = await sendChecked('POST', `/v4/transactions/${id}/refunds`, { body, pathParams: ['transaction_id'] });
          if (a.status === 201) refunded += (JSON.parse(a.text) as { amount: number }).amount;
        }
        expect(refunded).toBeLessThanOrEqual(1_000_000);
        const list = await sendChecked('GET', `/v4/transactions/${id}/refunds`, { pathParams: ['transaction_id'] });
        expect(list.status).toBe(200);
      }),
      paramsScaled(0.25),
    );
  });

  it('POST /v4/subscriptions: valid bodies create; mutated bodies never 5xx and 4xx point into the body', async () => {
    await fc.assert(
      fc.asyncProperty(validSubscription, async (body) => {
        const a = await sendChecked('POST', '/v4/subscriptions', { body, headers: SUB_HEADERS() });
        expect(a.status, a.text).toBe(201);
      }),
      paramsScaled(0.4),
    );
    await fc.assert(
      fc.asyncProperty(
        mutatedBody(validSubscription),
        async (body) => void (await sendChecked('POST', '/v4/subscriptions', { body, headers: SUB_HEADERS() })),
      ),
      paramsScaled(0.6),
    );
  });

  it('GET lists: generated query strings and cursors never 5xx; 4xx point at a query parameter', async () => {
    const id = await createPayment();
    const lists = fc.constantFrom('/v4/transactions', '/v4/subscriptions', '/v4/buyers', '/buyers', `/v4/transactions/${id}/refunds`);
    await fc.assert(
      fc.asyncProperty(lists, queryString, async (path, query) => {
        const a = await sendChecked('GET', path, { query, pathParams: ['transaction_id'] });
        if (a.status === 200)
          expect(Object.keys(JSON.parse(a.text) as object)).toEqual(
            expect.arrayContaining(['items', 'limit', 'next_cursor', 'previous_cursor']),
          );
      }),
      params,
    );
    await fc.assert(
      fc.asyncProperty(
        lists,
        cursor,
        async (path, c) => void (await sendChecked('GET', path, { query: { cursor: c }, pathParams: ['transaction_id'] })),
      ),
      params,
    );
  });

  it('generated path ids on every /v4 route with an id never 5xx (404 or 400 envelopes)', async () => {
    const routes = fc.constantFrom(
      ['GET', '/v4/transactions/:id', 'transaction_id'],
      ['GET', '/v4/transactions/:id/refunds', 'transaction_id'],
      ['POST', '/v4/transactions/:id/refunds', 'transaction_id'],
      ['GET', '/v4/subscriptions/:id', 'subscription_id'],
      ['POST', '/v4/subscriptions/:id/cancel', 'subscription_id'],
    );
    // A lone "." is a dot segment: the URL parser (every HTTP client's) drops it before the
    // request is sent, so `GET /v4/transactions/.` is the list itself, a 200.
    const id = fc
      .oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('0', '-1', 'null', '%00', '..', 'a'.repeat(500)))
      .filter((raw) => raw !== '.');
    await fc.assert(
      fc.asyncProperty(routes, id, async ([method, pattern, param], raw) => {
        const path = pattern!.replace(':id', encodeURIComponent(raw));
        const a = await sendChecked(method!, path, {
          body: method === 'POST' ? {} : undefined,
          pathParams: [param!],
          headers: SUB_HEADERS(),
        });
        expect(a.status, a.text).toBeGreaterThanOrEqual(400);
      }),
      params,
    );
  });
});
