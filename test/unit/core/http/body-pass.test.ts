/**
 * The body's pass compiled from its schema (`wire/body-pass.ts`): compiled once per schema, it
 * gives in one walk what the walk beside the schema (`preparedBody`) and the canonical JSON of
 * its result (`canonicalJson`) gave, for any body, valid or not: the same body without `null`
 * fields, the same unknown fields in the same order (or none where the schema is not seen
 * through), and the same canonical text, so the idempotency fingerprints stay as stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { canonicalJson } from '../../../../src/core/http/idempotency.js';
import { scannedBody } from '../../../../src/core/http/redact.js';
import { bodyPass, compiledBodyPass } from '../../../../src/core/http/wire/body-pass.js';
import { preparedBody } from '../../../../src/core/http/wire/absent-nulls.js';
import { refundCreateSchema, transactionCreateSchema } from '../../../../src/features/transactions/transactions.schemas.js';
import { type Json, mutate, mutation, params } from '../../../support/fuzz.js';

const PAYMENT: Json = {
  amount: 1050,
  currency: 'USD',
  description: null,
  customer: { email: 'jane@example.com', name: null, extra: [1, { z: null }] },
  metadata: { b: '1', a: '2', 'x/y': 'z' },
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123', nickname: 'n' },
  browser_info: { user_agent: 'bench', 'odd~key': 1 },
};

/** What the layers computed before the pass: the walk beside the schema, then the canonical text of its body. */
function before(schema: z.ZodType, body: unknown) {
  const { value, unknown } = preparedBody(schema, body);
  return { value, unknown, canonical: canonicalJson(value) };
}

const SCHEMAS: [string, z.ZodType][] = [
  ['direct transaction create', transactionCreateSchema('direct')],
  ['checkout transaction create', transactionCreateSchema('checkout')],
  ['refund create', refundCreateSchema],
  [
    'a schema with a union, a transform, a loose object and a record of objects',
    z.object({
      u: z.union([z.object({ b: z.string() }), z.object({ c: z.string().optional() })]).optional(),
      t: z
        .object({ b: z.string() })
        .transform((v) => ({ ...v, c: 1 }))
        .optional(),
      l: z.looseObject({ k: z.string().optional() }).optional(),
      r: z.record(z.string(), z.object({ id: z.number() })).optional(),
      list: z.array(z.object({ id: z.number().nullable() })).optional(),
    }),
  ],
];

describe('the body pass compiled from the schema', () => {
  it('is compiled once per schema, when asked for (a schema made for one request is never compiled)', () => {
    const schema = transactionCreateSchema('direct');
    expect(bodyPass(schema)).toBe(bodyPass(schema));
    expect(compiledBodyPass(schema)).toBe(bodyPass(schema));
    const once = z.object({ at: z.number().max(Date.now()) });
    expect(compiledBodyPass(once)).toBeUndefined();
  });

  for (const [name, schema] of SCHEMAS) {
    it(`gives, for a ${name}, the body, unknown fields and canonical text the separate walks gave, for any body`, () => {
      const pass = bodyPass(schema);
      expect(pass(PAYMENT)).toEqual(before(schema, PAYMENT));
      fc.assert(
        fc.property(fc.array(mutation, { maxLength: 6 }), (mutations) => {
          const body = mutate(PAYMENT, mutations);
          const got = pass(body);
          const want = before(schema, body);
          expect(got).toEqual(want);
          // Own keys such as `__proto__` are kept as keys, in the same order.
          expect(JSON.stringify(got.value)).toBe(JSON.stringify(want.value));
        }),
        params,
      );
    });
  }

  it('keeps the fingerprint text of a create: keys sorted at every depth, nulls on fields left out', () => {
    const { canonical, unknown } = bodyPass(transactionCreateSchema('direct'))(PAYMENT);
    expect(canonical).toBe(
      '{"amount":1050,"browser_info":{"odd~key":1,"user_agent":"bench"},"currency":"USD",' +
        '"customer":{"email":"jane@example.com","extra":[1,{"z":null}]},"metadata":{"a":"2","b":"1","x/y":"z"},' +
        '"payment_method":{"expiration_date":"12/30","nickname":"n","number":"4111111111111111","security_code":"123","type":"card"}}',
    );
    expect(unknown).toEqual(['/customer/extra', '/payment_method/nickname', '/browser_info/odd~0key']);
  });
});

/** Keys and values that carry card data, or look as if they might, for the log's scan. */
const cardKey = fc.constantFrom(
  'cvv',
  'CVC2',
  'security_code',
  'securityCode',
  'card[cvc]',
  'number',
  'PAN',
  'card_number',
  '__proto__',
  '4111111111111111',
);
const cardValue = fc
  .constantFrom<Json>(
    '4111111111111111',
    '4111 1111 1111 1111',
    4111111111111111,
    '123',
    123,
    ' 1234 ',
    '{"number":"4242424242424242"}',
    'cvv: 999',
    '4111111111111111'.repeat(3),
    'Bearer sk_test_abc',
    '550e8400-e29b-41d4-a716-446655440000',
    { cvv: '321' },
    [{ number: 5555555555554444 }],
  )
  .map((v) => structuredClone(v)); // a fresh copy each time: a later mutation may write into it
const cardMutation = fc.record({
  at: fc.nat(),
  op: fc.constantFrom<'set' | 'add'>('set', 'add', 'add'),
  key: fc.oneof(cardKey, fc.string({ maxLength: 12 })),
  value: fc.oneof(cardValue, cardValue, fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>),
});

describe("the body pass's scan for the request log", () => {
  for (const [name, schema] of SCHEMAS) {
    it(`gives, for a ${name}, the log's text and card-data finding of the log's own scan of the passed body, for any body`, () => {
      const pass = bodyPass(schema);
      fc.assert(
        fc.property(
          fc.array(fc.oneof(mutation, cardMutation, cardMutation), { maxLength: 6 }),
          fc.constantFrom(16 * 1024, 12, 3),
          (mutations, maxString) => {
            const body = mutate(PAYMENT, mutations);
            const got = pass(body, { maxString });
            expect(got.logged).toEqual(scannedBody(got.value, maxString));
            // Asking for the log's text changes nothing else the pass gives.
            const { logged: _logged, ...rest } = got;
            expect(rest).toEqual(pass(body));
          },
        ),
        params,
      );
    });
  }

  it('finds the card data of a create in the same walk: masked number, security code left out', () => {
    const { logged } = bodyPass(transactionCreateSchema('direct'))(PAYMENT, { maxString: 16 * 1024 });
    expect(logged).toEqual({
      json:
        '{"amount":1050,"currency":"USD","customer":{"email":"jane@example.com","extra":[1,{"z":null}]},"metadata":{"b":"1","a":"2","x/y":"z"},' +
        '"payment_method":{"type":"card","number":"•••• 1111","expiration_date":"12/30","nickname":"n"},"browser_info":{"user_agent":"bench","odd~key":1}}',
      cardData: true,
    });
    expect(logged!.json).toContain('"number":"•••• 1111"');
    expect(logged!.json).not.toContain('security_code');
    const plain = bodyPass(transactionCreateSchema('direct'))(
      { amount: 1, currency: 'USD', payment_method: { type: 'card' } },
      { maxString: 16 * 1024 },
    );
    expect(plain.logged).toEqual({ json: '{"amount":1,"currency":"USD","payment_method":{"type":"card"}}', cardData: false });
  });
});
