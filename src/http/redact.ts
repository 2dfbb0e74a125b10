/**
 * Card data never leaves a request: before a request body is logged or stored (request log,
 * warnings, anything the panel shows) card numbers become a mask that keeps only the last
 * four digits (`•••• 1111`) and security codes are dropped. `redactBody` works on a parsed
 * body; `redactText` on text that may not be valid JSON (a malformed body, an error answer).
 */
import { luhnValid } from '../domain/card.js';

/** The mask of a card number: `•••• ` and its last four digits (`••••` when it has fewer). */
export function maskCardNumber(number: string): string {
  const digits = number.replace(/\D/g, '');
  return digits.length >= 4 ? `•••• ${digits.slice(-4)}` : '••••';
}

const SECURITY_CODE_KEYS = new Set(['security_code', 'cvv', 'cvc', 'cvv2', 'cvc2']);
const CARD_NUMBER_KEYS = new Set(['number', 'card_number', 'pan']);

/**
 * A copy of `value` without card data: every `security_code` (or cvv/cvc) key removed, and
 * every card number (a `number` key, or digits in a string that pass the Luhn check) masked.
 */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECURITY_CODE_KEYS.has(key.toLowerCase())) continue;
      out[key] = CARD_NUMBER_KEYS.has(key.toLowerCase()) && (typeof v === 'string' || typeof v === 'number') ? maskCardNumber(String(v)) : redactBody(v);
    }
    return out;
  }
  if (typeof value === 'string') return redactText(value);
  return value;
}

/** A run of 12 to 19 digits, spaces or dashes allowed between them: what a card number looks like. */
const CARD_DIGITS = /\d(?:[ -]?\d){11,18}/g;
/** A security code member of JSON text, with its value (string or number). */
const SECURITY_CODE_MEMBER = /"(?:security_code|cvv|cvc|cvv2|cvc2)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|null|true|false)\s*,?\s*/gi;

/** A card number member of JSON text whose value is a string or a number. */
const CARD_NUMBER_MEMBER = /("(?:number|card_number|pan)"\s*:\s*)(?:"((?:[^"\\]|\\.)*)"|(\d+))/gi;

/** `text` with card numbers (digit runs that pass the Luhn check) masked and security code members removed. */
export function redactText(text: string): string {
  return text
    .replace(SECURITY_CODE_MEMBER, '')
    .replace(CARD_NUMBER_MEMBER, (_m, name: string, str: string | undefined, num: string | undefined) => `${name}"${maskCardNumber(str ?? num ?? '')}"`)
    .replace(CARD_DIGITS, (m) => (luhnValid(m.replace(/\D/g, '')) ? maskCardNumber(m) : m));
}
