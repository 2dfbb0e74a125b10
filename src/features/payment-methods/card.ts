/**
 * Card numbers and expiry dates: the Luhn check, the last four digits, the MM/YY format
 * and the card scheme read from the number's leading digits. Pure functions; card numbers
 * are strings of digits only (callers strip spaces or dashes before).
 */

/** Card schemes the sandbox recognises from a number's prefix. */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'unionpay' | 'unknown';

const CARD_NUMBER = /^\d{12,19}$/;
const EXPIRY = /^(0[1-9]|1[0-2])\/\d{2}$/;

/**
 * Whether `number` is 12 to 19 digits (nothing else) and passes the Luhn checksum.
 */
export function luhnValid(number: string): boolean {
  if (!CARD_NUMBER.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = number.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * The last four digits of a card number, as in `payment_method.card.last4`.
 * @throws RangeError if `number` is not at least four digits and nothing else.
 */
export function cardLast4(number: string): string {
  if (!/^\d{4,}$/.test(number)) throw new RangeError('A card number must be at least four digits');
  return number.slice(-4);
}

/**
 * Whether `mmYY` has the form MM/YY with a month from 01 to 12 (e.g. "04/29").
 * Only the format is checked, not whether the date has passed.
 */
export function isValidExpiry(mmYY: string): boolean {
  return EXPIRY.test(mmYY);
}

/**
 * The card scheme by IIN prefix: Visa 4; Mastercard 51–55 and 2221–2720; Amex 34, 37;
 * Discover 6011, 644–649, 65; JCB 3528–3589; UnionPay 62 and 81. Anything else, or input
 * that is not digits only, is 'unknown'. (622126–622925 is co-branded; it reads as UnionPay.)
 */
export function cardBrand(number: string): CardBrand {
  if (!/^\d+$/.test(number)) return 'unknown';
  const p = (n: number): number => (number.length >= n ? Number(number.slice(0, n)) : -1);
  if (number.startsWith('4')) return 'visa';
  if (p(2) === 34 || p(2) === 37) return 'amex';
  if ((p(2) >= 51 && p(2) <= 55) || (p(4) >= 2221 && p(4) <= 2720)) return 'mastercard';
  if (p(4) === 6011 || p(2) === 65 || (p(3) >= 644 && p(3) <= 649)) return 'discover';
  if (p(4) >= 3528 && p(4) <= 3589) return 'jcb';
  if (p(2) === 62 || p(2) === 81) return 'unionpay';
  return 'unknown';
}

/**
 * The full year of a card's two-digit expiry year `yy` on a clock in `clockYear`: the year
 * ending in `yy` from 20 years before the clock's year to 79 after it (a card is printed to
 * expire a few years ahead, and one expired within 20 years reads as expired). In 2026 that is
 * 2006 to 2105; in 9999, 9979 to 10078: the clock's year never makes every card expired.
 */
export function cardExpiryYear(yy: number, clockYear: number): number {
  const earliest = clockYear - 20;
  return earliest + ((((yy - earliest) % 100) + 100) % 100);
}

/**
 * Whether a card with expiry `mmYY` (MM/YY, e.g. "04/29") has expired at `nowMs` on the
 * sandbox clock: a card is good through the last day of its expiry month, so it is
 * expired from the first instant (UTC) of the month after. The two-digit year is read around
 * the clock's year (`cardExpiryYear`).
 * @throws RangeError if `mmYY` is not MM/YY.
 */
export function isCardExpired(mmYY: string, nowMs: number): boolean {
  if (!isValidExpiry(mmYY)) throw new RangeError(`A card expiry is MM/YY, got ${JSON.stringify(mmYY)}`);
  const month = Number(mmYY.slice(0, 2));
  const now = new Date(nowMs);
  const year = cardExpiryYear(Number(mmYY.slice(3)), now.getUTCFullYear());
  const nowIndex = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expiryIndex = year * 12 + (month - 1);
  return expiryIndex < nowIndex;
}

/** The security-code length a scheme prints: 4 digits for American Express, 3 for every other. */
export function securityCodeLength(brand: CardBrand): 3 | 4 {
  return brand === 'amex' ? 4 : 3;
}

/**
 * Whether `code` is a security code for a card of `number`: digits only, exactly as many as
 * the scheme uses (`securityCodeLength(cardBrand(number))`).
 */
export function isValidSecurityCode(code: string, number: string): boolean {
  return new RegExp(`^\\d{${securityCodeLength(cardBrand(number))}}$`).test(code);
}

/**
 * The sandbox's default test card: charged when a direct-mode
 * subscription sends no card fields. Visa ending 4242; its expiry is two years ahead of the
 * sandbox clock at the time it is put on file (`defaultTestCardExpiry`).
 */
export const DEFAULT_TEST_CARD = Object.freeze({ number: '4242424242424242', brand: 'visa' as CardBrand, last4: '4242' });

/** MM/YY two years after `nowMs` (UTC), the expiry of the default test card put on file then. */
export function defaultTestCardExpiry(nowMs: number): string {
  const now = new Date(nowMs);
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const year = String((now.getUTCFullYear() + 2) % 100).padStart(2, '0');
  return `${month}/${year}`;
}
