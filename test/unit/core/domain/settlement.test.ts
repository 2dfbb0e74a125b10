import { describe, expect, it } from 'vitest';
import {
  exchangeRate,
  isSettlementCurrency,
  SANDBOX_RATES_PER_USD,
  settle,
  SETTLEMENT_CURRENCIES,
} from '../../../../src/core/domain/settlement.js';

describe('settle at fixed sandbox rates', () => {
  it('USD → THB: 10.50 USD settles as 378.00 THB at 36.000000', () => {
    expect(settle(1050, 'USD', 'THB')).toEqual({ exchange_rate: '36.000000', settlement_amount: 37800, settlement_currency_code: 'THB' });
  });
  it('USD → THB for one cent and for the largest amount', () => {
    expect(settle(1, 'USD', 'THB').settlement_amount).toBe(36);
    expect(settle(99_999_999, 'USD', 'THB').settlement_amount).toBe(3_599_999_964);
  });
  it('THB → USD rounds half away from zero to cents: 100.00 THB → 2.78 USD', () => {
    expect(settle(10000, 'THB', 'USD')).toEqual({ exchange_rate: '0.027778', settlement_amount: 278, settlement_currency_code: 'USD' });
  });
  it('respects ISO 4217 exponents: USD (2) → JPY (0), JPY → EUR', () => {
    expect(settle(1050, 'USD', 'JPY')).toEqual({ exchange_rate: '150.000000', settlement_amount: 1575, settlement_currency_code: 'JPY' });
    expect(settle(1000, 'JPY', 'EUR')).toEqual({ exchange_rate: '0.006133', settlement_amount: 613, settlement_currency_code: 'EUR' });
  });
  it('cross rates go through USD exactly: BRL → CNY', () => {
    // 55.00 BRL = 10 USD = 72.00 CNY
    expect(settle(5500, 'BRL', 'CNY')).toEqual({ exchange_rate: '1.309091', settlement_amount: 7200, settlement_currency_code: 'CNY' });
  });
  it('the same currency settles at 1.000000, for any ISO 4217 currency', () => {
    expect(settle(1050, 'BHD', 'BHD')).toEqual({ exchange_rate: '1.000000', settlement_amount: 1050, settlement_currency_code: 'BHD' });
  });
  it('refuses currencies without a rate and non-integer amounts', () => {
    expect(() => settle(100, 'USD', 'KRW')).toThrow(/No sandbox rate for "KRW"/);
    expect(() => settle(100, 'USD', 'ABC')).toThrow(RangeError);
    expect(() => settle(1.5, 'USD', 'THB')).toThrow(RangeError);
  });
  it('every rated currency is an ISO 4217 code with a positive rate', () => {
    for (const code of SETTLEMENT_CURRENCIES) {
      expect(isSettlementCurrency(code)).toBe(true);
      expect(Number(SANDBOX_RATES_PER_USD[code])).toBeGreaterThan(0);
      expect(exchangeRate(code, 'USD')).toMatch(/^\d+\.\d{6}$/);
    }
    expect(isSettlementCurrency('toString')).toBe(false);
  });
});
