/**
 * The body gate's depth walk and the idempotency fingerprint's canonical JSON, pinned: both
 * were rewritten for speed and must give what they gave before (a stored fingerprint from an
 * older build still matches its request; the depth error points at the same value).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mayNestDeeperThan, tooDeep } from '../../../../src/core/http/body.js';
import { canonicalJson } from '../../../../src/core/http/idempotency.js';

const nest = (levels: number, wrap: (inner: unknown, level: number) => unknown): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = wrap(value, i);
  return value;
};

describe('canonicalJson (idempotency fingerprint)', () => {
  it('sorts keys by UTF-16 code units at every depth and gives the text (and fingerprint) older builds stored', () => {
    const body = {
      currency: 'USD',
      amount: 1050,
      metadata: { b: 1, B: 2, '10': 'x', '2': 'y', é: [3, { z: null, a: true }], '😀': 'e', ﬀ: 'f' },
      payment_method: { type: 'card', number: '4111111111111111' },
      list: [],
      empty: {},
      s: 'a"\u2028\\',
    };
    const text = canonicalJson(body);
    expect(text).toBe(
      '{"amount":1050,"currency":"USD","empty":{},"list":[],"metadata":{"10":"x","2":"y","B":2,"b":1,"é":[3,{"a":true,"z":null}],"😀":"e","ﬀ":"f"},' +
        '"payment_method":{"number":"4111111111111111","type":"card"},"s":"a\\"\u2028\\\\"}',
    );
    // Computed with the implementation before the rewrite (e92f0f8).
    expect(createHash('sha256').update(`POST /v4/transactions\n${text}`).digest('hex')).toBe(
      '7caa9de996081cdda7c4a6f394e624b8b4215caf70f70dc588faac6022c5128d',
    );
    expect(canonicalJson(JSON.parse('{"__proto__":{"b":1,"a":2},"constructor":null}'))).toBe(
      '{"__proto__":{"a":2,"b":1},"constructor":null}',
    );
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson([{ b: 1, a: [] }, 'x'])).toBe('[{"a":[],"b":1},"x"]');
  });
});

describe('tooDeep (body gate)', () => {
  it('allows 64 levels of arrays and objects and points at the first value on the 65th', () => {
    expect(tooDeep({ a: 1 })).toBeUndefined();
    expect(tooDeep(nest(64, (inner) => ({ a: inner })))).toBeUndefined();
    expect(tooDeep(nest(65, (inner) => ({ a: inner })))).toBe('/a'.repeat(64));
    expect(tooDeep(nest(65, (inner) => [inner]))).toBe('/0'.repeat(64));
    expect(tooDeep({ 'a/b~c': nest(64, (inner) => ({ '~': inner })) })).toBe('/a~1b~0c' + '/~0'.repeat(63));
  });

  it('reports the same value as before when several are too deep: the last one in document order', () => {
    const deepA = nest(65, (inner) => ({ a: inner }));
    const deepB = nest(66, (inner) => [inner]);
    expect(tooDeep({ x: deepA, y: deepB })).toBe('/y' + '/0'.repeat(63));
    expect(tooDeep([deepA, 2, deepA])).toBe('/2' + '/a'.repeat(63));
    expect(tooDeep({ x: 1, y: [1, { z: 2 }] }, 2)).toBe('/y/1');
  });

  it('walks no deeper than the limit: 20,000 levels are no stack overflow', () => {
    const text = '['.repeat(20_000) + ']'.repeat(20_000);
    expect(tooDeep(JSON.parse(text))).toBe('/0'.repeat(64));
  });
});

describe('mayNestDeeperThan (body gate): the nesting walk only where the text could need it', () => {
  it('counts the opening brackets of the text, strings too: no more than the limit, no value is too deep', () => {
    const objects = (n: number) => JSON.stringify(nest(n, (inner) => ({ a: inner })));
    expect(mayNestDeeperThan(objects(64), 64)).toBe(false);
    expect(mayNestDeeperThan(objects(65), 64)).toBe(true);
    expect(mayNestDeeperThan('['.repeat(65) + ']'.repeat(65), 64)).toBe(true);
    expect(mayNestDeeperThan(JSON.stringify({ a: [{}, { b: [] }] }), 3)).toBe(true); // 4 openings, 3 deep: a walk decides
    expect(mayNestDeeperThan(JSON.stringify({ note: '{'.repeat(70) }), 64)).toBe(true); // an upper bound, never low
    expect(mayNestDeeperThan(JSON.stringify({ amount: 1050, payment_method: { type: 'card' }, list: [1, 2] }), 64)).toBe(false);
  });
});
