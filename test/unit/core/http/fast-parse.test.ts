/**
 * zod's compiled parse of a create body (`wire/fast-parse.ts`): the route's schemas compile;
 * a valid body takes the compiled parse and parses to what the schema's own parse gives, key
 * order included; any body, valid or not, gets the schema's own answer (its details for a
 * refusal, a rule across fields too); and a schema zod will not compile keeps its own parse.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from '@hono/zod-openapi';
import { bodyPass } from '../../../../src/core/http/wire/body-pass.js';
import { compileParse, parseBody } from '../../../../src/core/http/wire/fast-parse.js';
import { refundCreateSchema, transactionCreateSchema } from '../../../../src/features/transactions/transactions.schemas.js';
import { type Json, mutate, mutation, oddScalar, params } from '../../../support/fuzz.js';

const CARD = { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' };
const BROWSER = {
  javascript_enabled: true,
  language: 'en-US',
  color_depth: 24,
  screen_height: 800,
  user_agent: 'vitest',
  user_device: 'mobile',
};

/** Valid bodies of each schema, with every kind of field the schema has. */
const VALID: [string, z.ZodType, Json[]][] = [
  [
    'direct transaction create',
    transactionCreateSchema('direct'),
    [
      { amount: 1050, currency: 'USD', payment_method: CARD, browser_info: { user_agent: 'bench' } },
      {
        browser_info: BROWSER,
        payment_method: { ...CARD, holder_name: 'Jane Doe', number: '378282246310005', security_code: '1234' },
        metadata: { z: '1', a: 'card 4111 1111 1111 1111', 'x/y': '' },
        customer: { name: 'Jane', email: 'jane@example.com' },
        notification_url: 'https://merchant.example/hooks',
        external_identifier: 'order-1',
        description: 'Order 1 for 4111111111111111',
        currency: 'THB',
        amount: 999_999_999_999,
      },
      { amount: 1, currency: 'THB', payment_method: { type: 'qr', payment_channel_code: 'PROMPTPAY' }, browser_info: {} },
    ],
  ],
  [
    'checkout transaction create',
    transactionCreateSchema('checkout'),
    [
      { amount: 500, currency: 'EUR', return_url: 'https://shop.example/back' },
      { return_url: 'http://localhost:3000/r', cancel_url: 'https://shop.example/c', amount: 2, currency: 'USD', metadata: {} },
    ],
  ],
  ['refund create', refundCreateSchema, [{}, { amount: 100, reason: 'Returned', external_identifier: 'r-1' }]],
];

for (const [, schema] of VALID) bodyPass(schema); // as the route does when it is built

/** The answer as a caller reads it: success, the value (key order included), or each refusal's details. */
const answer = (r: z.ZodSafeParseResult<unknown>): string =>
  JSON.stringify(r.success ? { success: true, data: r.data } : { success: false, issues: r.error.issues });

describe("zod's compiled parse of a create body", () => {
  for (const [name, schema, bodies] of VALID) {
    it(`${name}: a valid body takes the compiled parse and parses to what the schema gives`, () => {
      for (const body of bodies) {
        const expected = answer(schema.safeParse(body));
        expect(expected).toContain('"success":true');
        const own = vi.spyOn(schema, 'safeParse');
        try {
          expect(answer(parseBody(schema, body))).toBe(expected);
          expect(own).not.toHaveBeenCalled();
        } finally {
          own.mockRestore();
        }
      }
    });

    it(`${name}: any body, valid or not, gets the schema's own answer`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...bodies), fc.array(mutation, { minLength: 1, maxLength: 4 }), (base, mutations) => {
          const body = mutate(base, mutations);
          expect(answer(parseBody(schema, body))).toBe(answer(schema.safeParse(body)));
        }),
        { ...params, numRuns: params.numRuns * 5 },
      );
      fc.assert(
        fc.property(
          fc.dictionary(fc.constantFrom('amount', 'currency', 'metadata', 'customer', 'reason', 'browser_info'), oddScalar),
          (body) => {
            expect(answer(parseBody(schema, body))).toBe(answer(schema.safeParse(body)));
          },
        ),
        params,
      );
    });
  }

  it("a body that fails a rule across fields is refused with the schema's own details", () => {
    const schema = transactionCreateSchema('direct');
    // Every field valid on its own; American Express takes a 4-digit security code.
    const amex = { type: 'card', number: '378282246310005', expiration_date: '12/30', security_code: '123' };
    const body = { amount: 1050, currency: 'USD', payment_method: amex, browser_info: {} };
    const refused = parseBody(schema, body);
    expect(refused.success).toBe(false);
    expect(answer(refused)).toBe(answer(schema.safeParse(body)));
    const paths = refused.error!.issues.map((issue) => issue.path.join('/'));
    expect(paths).toEqual(['payment_method/security_code']);
  });

  it('a schema zod will not compile, or one never compiled, keeps its own parse', () => {
    const later = z.object({ at: z.string().transform(async (s) => s) });
    compileParse(later);
    const own = vi.spyOn(later, 'safeParse').mockReturnValue({ success: true, data: { at: 'own' } });
    expect(parseBody(later, { at: 'x' })).toEqual({ success: true, data: { at: 'own' } });
    const never = z.object({ n: z.number() });
    expect(parseBody(never, { n: 1 })).toEqual({ success: true, data: { n: 1 } });
    own.mockRestore();
  });
});
