/**
 * Settlement at fixed sandbox exchange rates. A payment settles in
 * its own currency at rate 1, or in another supported currency at the fixed rates below,
 * so `exchange_rate`, `settlement_amount` and `settlement_currency_code` of the payment
 * webhook can differ from the payment's. The rates are invented, round and never change:
 * they only make a merchant's currency handling testable; they are not market rates.
 *
 * Arithmetic is exact: rates are decimal strings, amounts integers in minor units, the
 * conversion is done in BigInt with each currency's ISO 4217 exponent (`money.ts`) and
 * rounded half away from zero to the settlement currency's minor unit.
 */
import { currencyExponent } from './money.js';

/** How many units of each currency one US dollar buys, in the sandbox (fixed). */
export const SANDBOX_RATES_PER_USD: Readonly<Record<string, string>> = Object.freeze({
  USD: '1',
  EUR: '0.92',
  GBP: '0.79',
  JPY: '150',
  CNY: '7.2',
  THB: '36',
  BRL: '5.5',
  SGD: '1.35',
});

/** Currencies the sandbox settles between, sorted. */
export const SETTLEMENT_CURRENCIES: readonly string[] = Object.freeze(Object.keys(SANDBOX_RATES_PER_USD).sort());

/** Digits after the point of `exchange_rate` (as the webhook's "1.000000"). */
export const EXCHANGE_RATE_DECIMALS = 6;

/** A settlement's figures: the rate (decimal string), the amount in the settlement currency's minor units. */
export interface Settlement {
  exchange_rate: string;
  settlement_amount: number;
  settlement_currency_code: string;
}

/** A decimal string as a fraction of BigInts: "7.2" → 72/10. */
function fraction(decimal: string): { num: bigint; den: bigint } {
  const [whole, frac = ''] = decimal.split('.');
  return { num: BigInt(whole + frac), den: 10n ** BigInt(frac.length) };
}

/** num/den rounded half away from zero (den > 0). */
function roundDiv(num: bigint, den: bigint): bigint {
  const negative = num < 0n;
  const abs = negative ? -num : num;
  const q = (abs * 2n + den) / (2n * den);
  return negative ? -q : q;
}

/** Whether the sandbox has a fixed rate for `currency`. */
export function isSettlementCurrency(currency: string): boolean {
  return Object.hasOwn(SANDBOX_RATES_PER_USD, currency);
}

/**
 * The exchange rate from `from` to `to` (units of `to` per unit of `from`) as a decimal
 * string with six decimals: USD→THB "36.000000", THB→USD "0.027778", X→X "1.000000".
 * @throws RangeError if either currency has no sandbox rate (same currency always works).
 */
export function exchangeRate(from: string, to: string): string {
  if (from === to) return `1.${'0'.repeat(EXCHANGE_RATE_DECIMALS)}`;
  const a = rate(from);
  const b = rate(to);
  // (b.num/b.den) / (a.num/a.den), scaled by 10^6.
  const scaled = roundDiv(b.num * a.den * 10n ** BigInt(EXCHANGE_RATE_DECIMALS), b.den * a.num);
  const digits = scaled.toString().padStart(EXCHANGE_RATE_DECIMALS + 1, '0');
  return `${digits.slice(0, -EXCHANGE_RATE_DECIMALS)}.${digits.slice(-EXCHANGE_RATE_DECIMALS)}`;
}

function rate(currency: string): { num: bigint; den: bigint } {
  const value = SANDBOX_RATES_PER_USD[currency];
  if (value === undefined || !Object.hasOwn(SANDBOX_RATES_PER_USD, currency)) {
    throw new RangeError(`No sandbox rate for ${JSON.stringify(currency)}; rates exist for ${SETTLEMENT_CURRENCIES.join(', ')}`);
  }
  return fraction(value);
}

/**
 * Settles `amount` (minor units of `currency`) in `settlementCurrency`: the same amount at
 * "1.000000" when the currencies are equal (any ISO 4217 currency), otherwise converted at
 * the exact ratio of the fixed rates (not the six-decimal rounded rate) and rounded half
 * away from zero to the settlement currency's minor unit. USD 1050 → THB 37800 ("378.00"),
 * USD 1050 → JPY 1575, THB 10000 → USD 278.
 * @throws RangeError for an unknown currency, a non-integer amount, or a pair without rates.
 */
export function settle(amount: number, currency: string, settlementCurrency: string): Settlement {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`An amount in minor units must be a safe integer, got ${amount}`);
  const fromExp = currencyExponent(currency);
  const toExp = currencyExponent(settlementCurrency);
  if (currency === settlementCurrency) {
    return { exchange_rate: exchangeRate(currency, currency), settlement_amount: amount, settlement_currency_code: settlementCurrency };
  }
  const a = rate(currency);
  const b = rate(settlementCurrency);
  // amount / 10^fromExp [major from] * (b/a) [to per from] * 10^toExp [minor to]
  const num = BigInt(amount) * b.num * a.den * 10n ** BigInt(toExp);
  const den = b.den * a.num * 10n ** BigInt(fromExp);
  return {
    exchange_rate: exchangeRate(currency, settlementCurrency),
    settlement_amount: Number(roundDiv(num, den)),
    settlement_currency_code: settlementCurrency,
  };
}
