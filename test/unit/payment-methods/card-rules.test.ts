import { describe, expect, it } from 'vitest';
import {
  defaultTestCardExpiry,
  isCardExpired,
  isValidSecurityCode,
  securityCodeLength,
} from '../../../src/features/payment-methods/card.js';

const at = (iso: string) => Date.parse(iso);

describe('isCardExpired (against a given clock)', () => {
  it('a card is good through its expiry month', () => {
    expect(isCardExpired('04/29', at('2029-04-01T00:00:00Z'))).toBe(false);
    expect(isCardExpired('04/29', at('2029-04-30T23:59:59.999Z'))).toBe(false);
  });
  it('expired from the first instant of the month after', () => {
    expect(isCardExpired('04/29', at('2029-05-01T00:00:00Z'))).toBe(true);
    expect(isCardExpired('12/29', at('2030-01-01T00:00:00Z'))).toBe(true);
    expect(isCardExpired('12/29', at('2029-12-31T12:00:00Z'))).toBe(false);
  });
  it("an expiry before the clock's month is expired; a later one is not", () => {
    expect(isCardExpired('01/20', at('2026-11-22T00:00:00Z'))).toBe(true);
    expect(isCardExpired('10/26', at('2026-11-22T00:00:00Z'))).toBe(true);
    expect(isCardExpired('11/26', at('2026-11-22T00:00:00Z'))).toBe(false);
    expect(isCardExpired('01/27', at('2026-11-22T00:00:00Z'))).toBe(false);
  });
  it("reads the two-digit year around the clock's year, so a far year never makes every card expired", () => {
    // 20 years back to 79 ahead of the clock's year.
    expect(isCardExpired('12/99', at('2026-11-22T00:00:00Z'))).toBe(false);
    expect(isCardExpired('12/06', at('2026-11-22T00:00:00Z'))).toBe(true);
    expect(isCardExpired('12/30', at('2500-06-01T00:00:00Z'))).toBe(false);
    expect(isCardExpired('12/90', at('2500-06-01T00:00:00Z'))).toBe(true);
    expect(isCardExpired('12/30', at('9999-12-31T23:59:59Z'))).toBe(false);
    expect(isCardExpired('11/99', at('9999-12-31T23:59:59Z'))).toBe(true);
    expect(isCardExpired('12/99', at('9999-12-31T23:59:59Z'))).toBe(false);
  });
  it('the default test card put on file near 9999 is not expired, its expiry past the four-digit years included', () => {
    for (const iso of ['2098-03-01T00:00:00Z', '9998-12-31T00:00:00Z', '9999-12-31T23:59:59Z']) {
      expect(isCardExpired(defaultTestCardExpiry(at(iso)), at(iso))).toBe(false);
    }
  });
  it('refuses what is not MM/YY', () => {
    expect(() => isCardExpired('13/29', 0)).toThrow(RangeError);
    expect(() => isCardExpired('4/29', 0)).toThrow(RangeError);
  });
});

describe('security code length by scheme', () => {
  it('4 for Amex, 3 for the others', () => {
    expect(securityCodeLength('amex')).toBe(4);
    for (const brand of ['visa', 'mastercard', 'discover', 'jcb', 'unionpay', 'unknown'] as const)
      expect(securityCodeLength(brand)).toBe(3);
  });
  it("isValidSecurityCode checks digits and the scheme's length", () => {
    expect(isValidSecurityCode('1234', '378282246310005')).toBe(true);
    expect(isValidSecurityCode('123', '378282246310005')).toBe(false);
    expect(isValidSecurityCode('123', '4242424242424242')).toBe(true);
    expect(isValidSecurityCode('1234', '4242424242424242')).toBe(false);
    expect(isValidSecurityCode('12a', '4242424242424242')).toBe(false);
    expect(isValidSecurityCode('', '5555555555554444')).toBe(false);
  });
});
