/**
 * The request log writes a parsed body's redacted text in one walk (`redactedJson`): the same
 * text as serializing the redacted copy (`redactBody`), card numbers masked and security codes
 * dropped at any depth.
 */
import { describe, expect, it } from 'vitest';
import { redactBody, redactedJson } from '../../../../src/core/http/redact.js';

const bodies: unknown[] = [
  {
    amount: 1050,
    currency: 'USD',
    description: 'card 4111 1111 1111 1111 in text',
    payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
    metadata: { cvv: 999, 'Security-Code': '321', pan: 4242424242424242, note: 'x"y\\z\u2028' },
    items: [{ card_number: '5555 5555 5555 4444' }, null, true, -0, 1e21, 'ok', [[], {}]],
  },
  JSON.parse('{"__proto__": {"polluted": 1}, "a": 1, "2": "two", "1": "one"}'),
  JSON.parse('{"__proto__": 5, "b": [1, {"CVC": "123", "Number": "378282246310005"}]}'),
  [],
  'a plain 4000056655665556 string',
  null,
  42,
];

describe('redactedJson', () => {
  it.each(bodies.map((b) => [JSON.stringify(b)?.slice(0, 40), b]))(
    'writes what serializing the redacted copy writes: %s',
    (_name, body) => {
      expect(redactedJson(body)).toBe(JSON.stringify(redactBody(body)));
      expect(redactedJson(body, 8)).toBe(JSON.stringify(redactBody(body, 8)));
    },
  );

  it('masks card numbers and drops security codes at any depth', () => {
    const text = redactedJson({ a: [{ payment_method: { number: '4111111111111111', security_code: '123' } }] });
    expect(text).toBe('{"a":[{"payment_method":{"number":"•••• 1111"}}]}');
  });
});
