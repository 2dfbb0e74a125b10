/**
 * Card data never leaves a request: before a request body is logged or stored (request log,
 * warnings, anything the panel shows) card numbers become a mask that keeps only the last
 * four digits (`•••• 1111`) and security codes are dropped. `redactBody` works on a parsed
 * body; `redactText` on text that may not be valid JSON (a malformed body, a form or
 * multipart body, a query string, a header, an error answer). Both find card data by
 * content (domain/card-data.ts), not only under the spec's own keys.
 */
import { isSecurityCodeKey, maskCardNumbers, redactSecurityCodes } from '../redaction/card-data.js';

/** The mask of a card number: `•••• ` and its last four digits (`••••` when it has fewer). */
export function maskCardNumber(number: string): string {
  const digits = number.replace(/\D/g, '');
  return digits.length >= 4 ? `•••• ${digits.slice(-4)}` : '••••';
}

const CARD_NUMBER_KEYS = new Set(['number', 'card_number', 'pan']);

/**
 * A copy of `value` without card data: every security code key (`security_code`, `cvv`,
 * `securityCode`...) removed, and every card number (a `number` key, or digits in a string
 * that pass the Luhn check) masked. Strings longer than `maxString` are cut to it first (the
 * request log keeps 16 KiB of a body: no need to scan a megabyte to keep that).
 */
export function redactBody(value: unknown, maxString = Infinity): unknown {
  if (Array.isArray(value)) return value.map((v) => redactBody(v, maxString));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (isSecurityCodeKey(key)) continue;
      out[key] =
        CARD_NUMBER_KEYS.has(key.toLowerCase()) && (typeof v === 'string' || typeof v === 'number')
          ? maskCardNumber(String(v))
          : redactBody(v, maxString);
    }
    return out;
  }
  if (typeof value === 'string') return redactText(value.length > maxString ? value.slice(0, maxString) : value);
  return value;
}

/**
 * `JSON.stringify(redactBody(value, maxString))`, written in one walk over `value` with no
 * redacted copy made first: the request log's text of a parsed body. A `__proto__` member is
 * left out, as the copy left it out.
 */
export function redactedJson(value: unknown, maxString = Infinity): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + redactedJson(value[i], maxString);
    return out + ']';
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let out = '{';
    let first = true;
    for (const key of Object.keys(record)) {
      const v = record[key];
      if (v === undefined || key === '__proto__' || isSecurityCodeKey(key)) continue;
      const text =
        CARD_NUMBER_KEYS.has(key.toLowerCase()) && (typeof v === 'string' || typeof v === 'number')
          ? JSON.stringify(maskCardNumber(String(v)))
          : redactedJson(v, maxString);
      out += (first ? '' : ',') + JSON.stringify(key) + ':' + text;
      first = false;
    }
    return out + '}';
  }
  if (typeof value === 'string') return JSON.stringify(redactText(value.length > maxString ? value.slice(0, maxString) : value));
  return JSON.stringify(value) ?? 'null';
}

/** A security code member of JSON text, with its value (string or number). */
const SECURITY_CODE_MEMBER = /"(?:security_code|cvv|cvc|cvv2|cvc2)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|null|true|false)\s*,?\s*/gi;

/** A card number member of JSON text whose value is a string or a number. */
const CARD_NUMBER_MEMBER = /("(?:number|card_number|pan)"\s*:\s*)(?:"((?:[^"\\]|\\.)*)"|(\d+))/gi;

/**
 * `text` with card numbers (13 to 19 digits that pass the Luhn check, grouped or not) masked,
 * security code members of JSON removed, and the value of any other security-code key
 * (escaped, percent-encoded, camelCase, in a form or multipart body) replaced by `[redacted]`.
 */
export function redactText(text: string): string {
  const members = text.includes('"')
    ? text
        .replace(SECURITY_CODE_MEMBER, '')
        .replace(
          CARD_NUMBER_MEMBER,
          (_m, name: string, str: string | undefined, num: string | undefined) => `${name}"${maskCardNumber(str ?? num ?? '')}"`,
        )
    : text;
  return maskCardNumbers(redactSecurityCodes(members), maskCardNumber);
}
