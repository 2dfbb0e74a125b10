/**
 * A parsed body is scanned for card data once (`scannedBody`): the walk that writes the request
 * log's redacted text also says whether the body carries card data, as the go-live report's own
 * scan (`carriesCardData`) did, and the go-live observation reads that answer.
 */
import { describe, expect, it, vi } from 'vitest';
import { carriesCardData, redactedJson, scannedBody } from '../../../../src/core/http/redact.js';
import * as cardData from '../../../../src/core/redaction/card-data.js';

const bodies: [string, unknown][] = [
  ['a card number under payment_method.number', { payment_method: { number: '4111111111111111' } }],
  ['a spaced card number in free text', { items: [{ note: 'pan 4242-4242-4242-4242' }] }],
  ['a card number as a number', { metadata: { ref: 4111111111111111 } }],
  ['a card number in a key', { metadata: { '4111111111111111': 'x' } }],
  ['a card number as JSON inside a string', { note: '{"number":"4111111111111111"}' }],
  ['a security code', { card: { cvv: '123' } }],
  ['a security code as a number', { securityCode: 4321 }],
  ['a security code too short', { cvc: '12' }],
  ['a security code key holding an object with a card', { cvv: { x: '4111111111111111' } }],
  ['an order and its ids', { amount: 1050, currency: 'USD', metadata: { order: '00012345', cid: 'customer-7' } }],
  ['a UUID', { transaction_id: '3f2b8c1e-5d4a-4e0b-9c7d-1a2b3c4d5e6f', security_code_hint: 'none' }],
  ['a __proto__ member with a card', JSON.parse('{"__proto__":{"n":"4111111111111111"},"a":1}')],
  ['a long string with a card past the cut', { note: 'x'.repeat(100) + ' 4111111111111111' }],
];

describe('scannedBody: one scan for the log and for card data', () => {
  it.each(bodies)('answers what carriesCardData answers: %s', (_name, body) => {
    const scanned = scannedBody(body, 64);
    expect(scanned.cardData).toBe(carriesCardData(body));
    expect(scanned.json).toBe(redactedJson(body, 64));
  });

  it('scans each string once: no second pass over the body for card data', () => {
    const spy = vi.spyOn(cardData, 'maskCardNumbers');
    const body = { description: 'Order 1001', payment_method: { type: 'card', number: '4111111111111111', security_code: '123' } };
    const scanned = scannedBody(body);
    expect(scanned.cardData).toBe(true);
    // One scan per string value and per key, each once; a separate detection would scan the whole text again.
    const scannedTexts = spy.mock.calls.map(([text]) => text);
    expect(new Set(scannedTexts).size).toBe(scannedTexts.length);
    expect(scannedTexts.some((t) => t.includes('"payment_method"'))).toBe(false);
    spy.mockRestore();
  });
});
