/**
 * What the go-live report takes for card data in a checkout-mode request body: a card number
 * anywhere, or a security code under any field that names one, whatever the field names.
 */
import { describe, expect, it } from 'vitest';
import { bodyCarriesCardData as carriesCardData } from '../../../src/core/http/request-log.js';

describe('card data in a request body', () => {
  it('finds a card number under any field name, at any depth, spaced or not', () => {
    expect(carriesCardData({ card: { number: '4111111111111111' } }, null)).toBe(true);
    expect(carriesCardData({ payment_method: { card_number: '5555 5555 5555 4444' } }, null)).toBe(true);
    expect(carriesCardData({ items: [{ note: 'pan 4242-4242-4242-4242' }] }, null)).toBe(true);
    expect(carriesCardData({ payment_method: { number: '4111111111111111' } }, null)).toBe(true);
  });

  it('finds a security code of 3 or 4 digits under any name that says so, in any casing', () => {
    for (const key of ['cvc', 'CVV', 'cvv2', 'Cvc2', 'cid', 'security_code', 'card_security_code', 'securityCode']) {
      expect(carriesCardData({ card: { [key]: '123' } }, null), key).toBe(true);
      expect(carriesCardData({ [key]: 4321 }, null), key).toBe(true);
    }
  });

  it('reads the text of a body that did not parse', () => {
    expect(carriesCardData(undefined, '{"card":{"number":"4111111111111111",')).toBe(true);
    expect(carriesCardData(undefined, 'cvv=123&amount=100')).toBe(true);
  });

  it('takes an order, its ids and amounts for what they are', () => {
    expect(
      carriesCardData(
        { amount: 1050, currency: 'USD', description: 'Order 1001', metadata: { order: '00012345', cid: 'customer-7' } },
        null,
      ),
    ).toBe(false);
    expect(carriesCardData({ transaction_id: '3f2b8c1e-5d4a-4e0b-9c7d-1a2b3c4d5e6f', security_code_hint: 'none' }, null)).toBe(false);
    expect(carriesCardData({ cvc: '12' }, null)).toBe(false);
    expect(carriesCardData(undefined, null)).toBe(false);
  });
});
