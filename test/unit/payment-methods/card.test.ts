import { describe, expect, it } from 'vitest';
import { cardBrand, cardLast4, isValidExpiry, luhnValid } from '../../../src/features/payment-methods/card.js';

describe('luhnValid', () => {
  it.each([
    '4111111111111111',
    '4242424242424242',
    '5555555555554444',
    '2223003122003222',
    '378282246310005',
    '6011111111111117',
    '3530111333300000',
    '6200000000000005',
    '4222222222222',
    '000000000000',
    '4111111111111111110',
  ])('accepts %s', (number) => {
    expect(luhnValid(number)).toBe(true);
  });

  it.each([
    ['wrong check digit', '4111111111111112'],
    ['11 digits', '00000000000'],
    ['20 digits', '00000000000000000000'],
    ['spaces', '4111 1111 1111 1111'],
    ['dashes', '4111-1111-1111-1111'],
    ['letters', '411111111111111a'],
    ['empty', ''],
  ])('rejects %s', (_label, number) => {
    expect(luhnValid(number)).toBe(false);
  });
});

describe('cardLast4', () => {
  it('returns the last four digits', () => {
    expect(cardLast4('4111111111111111')).toBe('1111');
    expect(cardLast4('378282246310005')).toBe('0005');
    expect(cardLast4('1234')).toBe('1234');
  });

  it('throws on input that is not at least four digits', () => {
    expect(() => cardLast4('123')).toThrow(RangeError);
    expect(() => cardLast4('4111 1111')).toThrow(RangeError);
  });
});

describe('isValidExpiry', () => {
  it.each(['01/30', '12/30', '04/00', '09/99'])('accepts %s', (value) => {
    expect(isValidExpiry(value)).toBe(true);
  });

  it.each(['00/30', '13/30', '1/30', '01/2030', '0130', '01-30', ' 01/30', '01/30 ', 'ab/cd', ''])('rejects %j', (value) => {
    expect(isValidExpiry(value)).toBe(false);
  });
});

describe('cardBrand', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['4222222222222', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['6011111111111117', 'discover'],
    ['6445644564456445', 'discover'],
    ['6500000000000002', 'discover'],
    ['3530111333300000', 'jcb'],
    ['3589000000000000', 'jcb'],
    ['6200000000000005', 'unionpay'],
    ['8100000000000000', 'unionpay'],
    ['2220990000000000', 'unknown'],
    ['2721000000000000', 'unknown'],
    ['5600000000000000', 'unknown'],
    ['3527000000000000', 'unknown'],
    ['3000000000000000', 'unknown'],
    ['4111 1111 1111 1111', 'unknown'],
    ['', 'unknown'],
  ])('%s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });
});
