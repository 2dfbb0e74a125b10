/**
 * The body's one walk beside its schema (`preparedBody`): it drops `null` fields and finds the
 * unknown fields at once, giving exactly what the null pass followed by the comparison of the
 * body with what the schema kept gave, in the same order; a schema the walk cannot see through
 * says so, and the comparison is made instead.
 */
import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { preparedBody, withoutNullOptionals } from '../../../../src/core/http/wire/absent-nulls.js';
import { unknownFields } from '../../../../src/core/http/unknown-fields.js';
import { refundCreateSchema, transactionCreateSchema } from '../../../../src/features/transactions/transactions.schemas.js';

const PAYMENT = {
  amount: 1050,
  currency: 'USD',
  description: null,
  extra: { deep: null },
  metadata: { a: 'b', 'x/y': 'z' },
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123', nickname: 'n' },
  browser_info: { user_agent: 'bench', 'odd~key': 1 },
  __proto__: null,
};

/** What the two walks gave before: the null pass, then the comparison with the parsed body. */
function twoWalks(schema: z.ZodType, body: unknown): { value: unknown; unknown: string[] } {
  const value = withoutNullOptionals(schema, body);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  return { value, unknown: unknownFields(value, parsed.data) };
}

describe('preparedBody: the null pass and the unknown fields in one walk', () => {
  for (const mode of ['direct', 'checkout'] as const) {
    it(`gives the body and unknown fields the two walks gave, for a ${mode} transaction create`, () => {
      const body = JSON.parse(JSON.stringify(PAYMENT)) as Record<string, unknown>;
      if (mode === 'checkout') Object.assign(body, { payment_method: undefined, return_url: 'https://shop.example/back' });
      if (mode === 'checkout') delete body.payment_method;
      const schema = transactionCreateSchema(mode);
      const one = preparedBody(schema, body);
      expect(one.unknown).toBeDefined(); // the create's schema is seen through: no second walk
      expect(one).toEqual(twoWalks(schema, body));
      expect(one.unknown!.length).toBeGreaterThan(0);
      expect(JSON.stringify(one.value)).toBe(JSON.stringify(twoWalks(schema, body).value));
    });
  }

  it('keeps unknown keys of loose objects and records, and escapes pointers as the comparison did', () => {
    const schema = z.object({
      a: z.looseObject({ k: z.string().optional() }),
      m: z.record(z.string(), z.string()),
      list: z.array(z.object({ id: z.number() })),
    });
    const body = { a: { k: null, other: 1 }, m: { 'p/q': 'r' }, list: [{ id: 1, 'x~': 2 }, { id: 2 }], 'w/z': null };
    const one = preparedBody(schema, body);
    expect(one).toEqual(twoWalks(schema, body));
    expect(one.unknown).toEqual(['/list/0/x~0', '/w~1z']);
  });

  it('says when it cannot see through the schema (a transform, a union), so the comparison is made', () => {
    const transformed = z.object({ a: z.object({ b: z.string() }).transform((v) => ({ ...v, c: 1 })) });
    expect(preparedBody(transformed, { a: { b: 'x', d: 1 } }).unknown).toBeUndefined();
    const union = z.object({ a: z.union([z.object({ b: z.string() }), z.object({ c: z.string() })]) });
    expect(preparedBody(union, { a: { c: 'x', d: 1 } }).unknown).toBeUndefined();
    expect(preparedBody(refundCreateSchema, { amount: 1, reason: null }).unknown).toEqual(
      twoWalks(refundCreateSchema, { amount: 1 }).unknown,
    );
  });
});
