import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, currencyExponent, formatMoney, isCurrency, toMajorUnits } from '../../../../src/core/domain/money.js';
import { settle } from '../../../../src/core/domain/settlement.js';
import { MAX_AMOUNT } from '../../../../src/core/http/schemas.js';

describe('currency table', () => {
  it('holds the active ISO 4217 codes, three uppercase letters each', () => {
    expect(CURRENCY_CODES.length).toBeGreaterThanOrEqual(150);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
  });

  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['GBP', 2],
    ['CNY', 2],
    ['THB', 2],
    ['BRL', 2],
    ['IDR', 2],
    ['HUF', 2],
    ['COP', 2],
    ['MRU', 2],
    ['MGA', 2],
    ['XCG', 2],
    ['ZWG', 2],
    ['SLE', 2],
    ['VES', 2],
    ['VED', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['CLP', 0],
    ['ISK', 0],
    ['VND', 0],
    ['PYG', 0],
    ['UGX', 0],
    ['XAF', 0],
    ['XOF', 0],
    ['XPF', 0],
    ['BIF', 0],
    ['DJF', 0],
    ['GNF', 0],
    ['KMF', 0],
    ['RWF', 0],
    ['VUV', 0],
    ['UYI', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['JOD', 3],
    ['OMR', 3],
    ['TND', 3],
    ['IQD', 3],
    ['LYD', 3],
    ['CLF', 4],
    ['UYW', 4],
  ])('%s has exponent %i', (code, exponent) => {
    expect(isCurrency(code)).toBe(true);
    expect(currencyExponent(code)).toBe(exponent);
  });

  it('accepts only exact uppercase codes', () => {
    expect(isCurrency('usd')).toBe(false);
    expect(isCurrency('Usd')).toBe(false);
    expect(isCurrency(' USD')).toBe(false);
    expect(isCurrency('USDX')).toBe(false);
    expect(isCurrency('')).toBe(false);
    expect(isCurrency('toString')).toBe(false);
    expect(isCurrency('__proto__')).toBe(false);
  });

  it('leaves out withdrawn codes and codes without a minor unit', () => {
    for (const code of ['HRK', 'CUC', 'SLL', 'ZWL', 'VEF', 'MRO', 'XAU', 'XDR', 'XTS', 'XXX']) {
      expect(isCurrency(code)).toBe(false);
    }
  });

  it('throws on an unknown code', () => {
    expect(() => currencyExponent('ABC')).toThrow(RangeError);
    expect(() => currencyExponent('usd')).toThrow(/Unknown currency/);
  });
});

describe('toMajorUnits', () => {
  it.each([
    [1050, 'USD', '10.50'],
    [5, 'USD', '0.05'],
    [50, 'USD', '0.50'],
    [0, 'USD', '0.00'],
    [100, 'EUR', '1.00'],
    [123456789, 'CNY', '1234567.89'],
    [500, 'JPY', '500'],
    [0, 'JPY', '0'],
    [1050, 'BHD', '1.050'],
    [5, 'KWD', '0.005'],
    [0, 'OMR', '0.000'],
    [12345, 'CLF', '1.2345'],
    [1, 'UYW', '0.0001'],
    [-5, 'USD', '-0.05'],
    [-1050, 'JPY', '-1050'],
    [Number.MAX_SAFE_INTEGER, 'USD', '90071992547409.91'],
  ])('%i %s -> %s', (amount, currency, expected) => {
    expect(toMajorUnits(amount, currency)).toBe(expected);
  });

  it('rejects amounts that are not safe integers', () => {
    expect(() => toMajorUnits(10.5, 'USD')).toThrow(RangeError);
    expect(() => toMajorUnits(Number.NaN, 'USD')).toThrow(RangeError);
    expect(() => toMajorUnits(Number.POSITIVE_INFINITY, 'USD')).toThrow(RangeError);
    expect(() => toMajorUnits(2 ** 53, 'USD')).toThrow(RangeError);
  });

  it('rejects unknown currencies', () => {
    expect(() => toMajorUnits(100, 'XYZ')).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it('joins the major-unit amount and the code', () => {
    expect(formatMoney(1050, 'USD')).toBe('10.50 USD');
    expect(formatMoney(500, 'JPY')).toBe('500 JPY');
    expect(formatMoney(1050, 'BHD')).toBe('1.050 BHD');
  });
});

describe('the largest amount the API accepts (999,999,999,999 minor units) stays exact', () => {
  it('as a decimal string in every exponent, and through settlement at the sandbox rates', () => {
    expect(MAX_AMOUNT).toBe(999_999_999_999);
    expect(toMajorUnits(MAX_AMOUNT, 'USD')).toBe('9999999999.99');
    expect(toMajorUnits(MAX_AMOUNT, 'JPY')).toBe('999999999999');
    expect(toMajorUnits(MAX_AMOUNT, 'BHD')).toBe('999999999.999');
    expect(toMajorUnits(MAX_AMOUNT, 'CLF')).toBe('99999999.9999');
    expect(toMajorUnits(10_000_000_000, 'IDR')).toBe('100000000.00');
    // USD → THB multiplies by 36: still an exact integer, far below 2^53.
    expect(settle(MAX_AMOUNT, 'USD', 'THB').settlement_amount).toBe(35_999_999_999_964);
    expect(settle(MAX_AMOUNT, 'USD', 'JPY').settlement_amount).toBe(1_499_999_999_999);
  });
});
