/**
 * The validation compiled from a schema (`wire/compiled-check.ts`): for any body, it accepts
 * exactly the bodies zod accepts and gives zod's value; what it refuses goes to zod, so a refusal
 * is zod's. A schema with a part it does not compile is left to zod whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { bodyPass } from '../../../../src/core/http/wire/body-pass.js';
import { REFUSED, compileCheck, compiledCheck } from '../../../../src/core/http/wire/compiled-check.js';
import { refundCreateSchema, transactionCreateSchema } from '../../../../src/features/transactions/transactions.schemas.js';
import { directPayment } from '../../../support/app.js';
import { type Json, mutate, mutation, params } from '../../../support/fuzz.js';

const DIRECT: Json = {
  ...(directPayment() as Record<string, Json>),
  metadata: { b: '1', a: '2' },
  notification_url: 'https://example.com/hook',
  browser_info: { user_agent: 'bench', language: 'en-US', color_depth: 24, time_zone_offset: -60, java_enabled: false },
};
const CHECKOUT: Json = { amount: 1050, currency: 'THB', return_url: 'https://example.com/back', metadata: { k: 'v' } };
const REFUND: Json = { amount: 100, reason: 'asked', external_identifier: 'r-1' };

const SCHEMAS: [string, z.ZodType, Json][] = [
  ['direct transaction create', transactionCreateSchema('direct'), DIRECT],
  ['checkout transaction create', transactionCreateSchema('checkout'), CHECKOUT],
  ['refund create', refundCreateSchema, REFUND],
];

/** The body as validation sees it: after the pass (no `null` fields). */
const passed = (schema: z.ZodType, body: unknown): unknown => bodyPass(schema)(body).value;

describe('the validation compiled from a schema', () => {
  it('is compiled with the body pass, once per schema', () => {
    for (const [, schema] of SCHEMAS) {
      bodyPass(schema);
      expect(compiledCheck(schema)).toBeTypeOf('function');
      expect(compileCheck(schema)).toBe(compiledCheck(schema));
    }
  });

  for (const [name, schema, valid] of SCHEMAS) {
    it(`accepts a valid ${name} with the value zod gives`, () => {
      const body = passed(schema, valid);
      const zod = schema.safeParse(body);
      expect(zod.success).toBe(true);
      expect(compileCheck(schema)!(body)).toEqual(zod.data);
    });

    it(`accepts exactly the ${name} bodies zod accepts, with zod's value, for any body`, () => {
      const check = compileCheck(schema)!;
      let accepted = 0;
      fc.assert(
        fc.property(fc.array(mutation, { maxLength: 4 }), (mutations) => {
          const body = passed(schema, mutate(valid, mutations));
          const zod = schema.safeParse(body);
          const got = check(body);
          if (got === REFUSED) {
            // Only a body with an own `__proto__` or `constructor` key may be left to zod while valid.
            if (zod.success) expect(JSON.stringify(body)).toMatch(/"(__proto__|constructor)"/);
          } else {
            accepted++;
            expect(zod.success).toBe(true);
            expect(got).toEqual(zod.data);
            expect(Object.keys(got as object)).toEqual(Object.keys(zod.data as object));
          }
        }),
        params,
      );
      expect(accepted).toBeGreaterThan(0);
    });
  }

  it('refuses what each part of a schema refuses: types, formats, lengths, refinements, required fields', () => {
    const check = compileCheck(transactionCreateSchema('direct'))!;
    const body = passed(transactionCreateSchema('direct'), DIRECT) as Record<string, unknown>;
    for (const change of [
      { amount: '1050' },
      { amount: 1.5 },
      { amount: JSON.parse('1e400') as number },
      { currency: 'usd' },
      { currency: 'XXX' },
      { description: 'x'.repeat(256) },
      { customer: { email: 'not-an-email' } },
      { notification_url: 'javascript:alert(1)' },
      { metadata: { a: 1 } },
      { payment_method: { type: 'card', number: '4111111111111112', expiration_date: '12/30', security_code: '123' } },
      { payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '1234' } },
      { browser_info: { user_agent: 'x', color_depth: 23 } },
      { browser_info: { user_agent: 'x', user_device: 'watch' } },
      { amount: undefined },
    ]) {
      const changed = { ...body, ...change };
      expect(schema(changed)).toBe(false);
      expect(check(changed)).toBe(REFUSED);
    }
    function schema(b: unknown): boolean {
      return transactionCreateSchema('direct').safeParse(b).success;
    }
  });

  it('leaves to zod a schema holding a part it does not compile', () => {
    expect(compileCheck(z.object({ a: z.union([z.string(), z.number()]) }))).toBeUndefined();
    expect(compileCheck(z.object({ a: z.string().transform((s) => s.length) }))).toBeUndefined();
    expect(compileCheck(z.object({ a: z.number().default(1) }))).toBeUndefined();
    expect(compileCheck(z.looseObject({ a: z.string() }))).toBeUndefined();
    expect(compileCheck(z.object({ a: z.coerce.number() }))).toBeUndefined();
  });
});
