/**
 * Card data never leaves a request: before a request body is logged or stored (request log,
 * warnings, anything the panel shows) card numbers become a mask that keeps only the last
 * four digits (`•••• 1111`) and security codes are dropped. `redactBody` works on a parsed
 * body; `redactText` on text that may not be valid JSON (a malformed body, a form or
 * multipart body, a query string, a header, an error answer). Both find card data by
 * content (core/redaction/card-data.ts), not only under the spec's own keys.
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
  return scannedBody(value, maxString).json;
}

/**
 * The one scan of a parsed body for card data: its text as the request log keeps it
 * (`redactedJson`) and whether it carries card data (`carriesCardData`), found by the same
 * walk (the go-live report reads it for checkout accounts, no second scan).
 */
export interface ScannedBody {
  json: string;
  cardData: boolean;
}

/** A security code's value: 3 or 4 digits, as a string or a number. */
const SECURITY_CODE_VALUE = /^\s*\d{3,4}\s*$/;

/** Security codes are looked for this deep at most (objects within objects). */
const SECURITY_CODE_DEPTH = 32;

/** Whether `text` holds a card number (the card-data detector's rule). */
export function holdsCardNumber(text: string): boolean {
  let found = false;
  maskCardNumbers(text, (digits) => {
    found = true;
    return digits;
  });
  return found;
}

/** Whether a parsed body holds a security code of 3 or 4 digits under any key that names one, at any depth. */
function holdsSecurityCode(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > SECURITY_CODE_DEPTH) return false;
  if (Array.isArray(value)) return value.some((item) => holdsSecurityCode(item, depth + 1));
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if ((typeof item === 'string' || typeof item === 'number') && isSecurityCodeKey(key) && SECURITY_CODE_VALUE.test(String(item)))
      return true;
    if (holdsSecurityCode(item, depth + 1)) return true;
  }
  return false;
}

/** Whether a parsed body carries a card number (in any key or value) or a security code under any key that names one. */
export function carriesCardData(body: unknown, depth = 0): boolean {
  return holdsCardNumber(JSON.stringify(body) ?? '') || holdsSecurityCode(body, depth);
}

/** The request log keeps this much of a body's text (16 KiB); each string is cut to it before it is scanned. */
export const MAX_LOGGED_BODY = 16 * 1024;

/** `scannedBody`'s walk: `cardData` is set when card data is met. The compiled body pass (`wire/body-pass.ts`) makes the same walk. */
export interface Scan {
  cardData: boolean;
  maxString: number;
}

/** What the log's walk makes of one member of an object, by its key alone (the same for every request: a schema's keys are known beforehand). */
export interface MemberRule {
  /** The key as JSON text. */
  quoted: string;
  /** The key itself holds a card number. */
  cardKey: boolean;
  /** Left out of the log (`__proto__`, a security code's key); what it holds is still looked at. */
  omitted: boolean;
  /** A card number's key (`number`, `card_number`, `pan`): a string or number under it is masked whole. */
  masked: boolean;
}

/** The rule of a member named `key` (see `MemberRule`). */
export function memberRule(key: string): MemberRule {
  return {
    quoted: JSON.stringify(key),
    // A card number has at least 13 digits: a shorter key holds none.
    cardKey: key.length >= 13 && holdsCardNumber(key),
    omitted: key === '__proto__' || isSecurityCodeKey(key),
    masked: CARD_NUMBER_KEYS.has(key.toLowerCase()),
  };
}

/**
 * The log's text of the member `v` under `rule` of an object at `depth`, when the member's
 * value is neither walked nor scanned by `scanValue` (omitted, or masked whole); undefined
 * when its value is walked (the caller writes `rule.quoted`, `:` and the value's text).
 * Card data the member holds is noted on `scan`.
 */
export function scannedMember(rule: MemberRule, key: string, v: unknown, scan: Scan, depth: number): string | null | undefined {
  if (!scan.cardData && rule.cardKey) scan.cardData = true;
  if (rule.omitted) {
    // Left out of the log; what it holds is still looked at.
    if (!scan.cardData) {
      const code = (typeof v === 'string' || typeof v === 'number') && key !== '__proto__' && depth <= SECURITY_CODE_DEPTH;
      if ((code && SECURITY_CODE_VALUE.test(String(v))) || carriesCardData(v, depth + 1)) scan.cardData = true;
    }
    return null;
  }
  if (rule.masked && (typeof v === 'string' || typeof v === 'number')) {
    if (!scan.cardData && holdsCardNumber(String(v))) scan.cardData = true;
    return JSON.stringify(maskCardNumber(String(v)));
  }
  return undefined;
}

/** See `ScannedBody`. */
export function scannedBody(value: unknown, maxString = Infinity): ScannedBody {
  const scan: Scan = { cardData: false, maxString };
  const json = scanValue(value, scan, 0);
  return { json, cardData: scan.cardData };
}

/** A string as logged; card data in it is noted on `scan`. */
function scanString(value: string, scan: Scan): string {
  const cut = value.length > scan.maxString ? value.slice(0, scan.maxString) : value;
  const text = redactTextNoting(cut, scan);
  // Past the cut is not logged, but card data there is still card data.
  if (!scan.cardData && cut !== value && holdsCardNumber(value)) scan.cardData = true;
  return JSON.stringify(text);
}

/** The log's text of `value` (an object or array at `depth`, or a leaf); card data in it is noted on `scan`. */
export function scanValue(value: unknown, scan: Scan, depth: number): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + scanValue(value[i], scan, depth + 1);
    return out + ']';
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let out = '{';
    let first = true;
    for (const key of Object.keys(record)) {
      const v = record[key];
      if (v === undefined) continue;
      const rule = memberRule(key);
      const member = scannedMember(rule, key, v, scan, depth);
      if (member === null) continue;
      out += (first ? '' : ',') + rule.quoted + ':' + (member ?? scanValue(v, scan, depth + 1));
      first = false;
    }
    return out + '}';
  }
  if (typeof value === 'string') return scanString(value, scan);
  if (typeof value === 'number' && !scan.cardData) {
    const digits = String(value);
    if (digits.length >= 13 && holdsCardNumber(digits)) scan.cardData = true;
  }
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
  return redactTextNoting(text, undefined);
}

/** `redactText`, noting on `scan` whether a card number was found (a security code in text is not counted). */
function redactTextNoting(text: string, scan: Scan | undefined): string {
  const members = text.includes('"')
    ? text
        .replace(SECURITY_CODE_MEMBER, '')
        .replace(CARD_NUMBER_MEMBER, (_m, name: string, str: string | undefined, num: string | undefined) => {
          if (scan && !scan.cardData && holdsCardNumber(str ?? num ?? '')) scan.cardData = true;
          return `${name}"${maskCardNumber(str ?? num ?? '')}"`;
        })
    : text;
  const mask = scan === undefined ? maskCardNumber : (digits: string): string => ((scan.cardData = true), maskCardNumber(digits));
  return maskCardNumbers(redactSecurityCodes(members), mask);
}
