/**
 * Card data found by content, in any text: a card number is 13 to 19 digits that pass the
 * Luhn check and begin with a card scheme's prefix at that scheme's length (Visa 4: 13, 16
 * or 19; Mastercard 51-55 and 2221-2720: 16; Amex 34, 37: 15; Discover 6011, 644-649, 65:
 * 16 to 19; JCB 3528-3589: 16 to 19; Diners 300-305, 36, 38: 14 to 19; UnionPay 62: 16 to
 * 19), written whole or in groups joined by one separator (a space, a dash, a dot, a slash,
 * an underscore, a comma, a line break, `+`, `%20` or `%2D` of a form or a query string) or
 * by two spaces, in groups of up to five or digit by digit, in ASCII or full-width digits,
 * not joined to a letter or to other digits. Never a card number: digits of a UUID,
 * of an IBAN-like reference (`DE89 3704 0044 0532 0130 00`), or of a phone number written
 * with its `+` (`+49 1512 3456789`). A security code is the value of any key that names one
 * (`cvv`, `cvc2`, `security_code`, `securityCode`, `card[cvc]`, `card_verification_value`, in
 * any casing, JSON-escaped `security\u005fcode` or percent-encoded `security%5Fcode`), in
 * JSON (valid or not), a form or multipart body, a query string or `key: value` text.
 * Both scans are linear: the digit scan walks the text once (each start tries at most 19
 * digits), and the key scan uses patterns without nested quantifiers.
 * The HTTP layer redacts request data with them (http/redact.ts), the logger its lines, and
 * the domain the free text of every record it stores (`withoutCardNumbers`).
 */

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;
/**
 * A card number is written in at most five groups (4-4-4-4-3); a window of more groups is
 * tried only when each of its groups is one digit (a number written digit by digit).
 */
const MAX_GROUPS = 6;

/** The value of the digit at `i` (ASCII or full-width), or -1. */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 0xff10 && c <= 0xff19) return c - 0xff10;
  return -1;
}

const LETTER = /\p{L}/u;
/** Whether the character at `i` is a letter (any script). */
const letterAt = (text: string, i: number): boolean => i >= 0 && i < text.length && LETTER.test(text[i]!);

/** Separators of one character between digit groups: space, no-break and ideographic space, tab, dashes, dot, slash, underscore, comma, `+`, line breaks. */
const SEPARATORS = new Set([32, 0xa0, 0x3000, 9, 45, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0xff0d, 46, 47, 95, 44, 43, 10, 13]);

/** The length of a separator between digit groups at `i` (one character, two spaces, `\r\n`, `%20`, `%2D`), or 0. */
function separatorAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if ((c === 13 && text.charCodeAt(i + 1) === 10) || (c === 32 && text.charCodeAt(i + 1) === 32)) return 2;
  if (SEPARATORS.has(c)) return 1;
  if (c === 37 && text.charCodeAt(i + 1) === 50) {
    const d = text.charCodeAt(i + 2) | 0x20;
    if (d === 48 || d === 100) return 3; // %20, %2d / %2D
  }
  return 0;
}

/** Whether `digits[from..to)` passes the Luhn check. */
function luhnAt(digits: number[], from: number, to: number): boolean {
  let sum = 0;
  let double = false;
  for (let i = to - 1; i >= from; i--) {
    let d = digits[i]!;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Whether `digits[from..to)` begins with a card scheme's prefix and has that scheme's length. */
function schemeAt(digits: number[], from: number, to: number): boolean {
  const length = to - from;
  const prefix = (n: number): number => {
    let v = 0;
    for (let i = from; i < from + n; i++) v = v * 10 + digits[i]!;
    return v;
  };
  const p2 = prefix(2);
  const p3 = prefix(3);
  const p4 = prefix(4);
  if (digits[from] === 4) return length === 13 || length === 16 || length === 19; // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return length === 16; // Mastercard
  if (p2 === 34 || p2 === 37) return length === 15; // American Express
  if (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65) return length >= 16; // Discover
  if (p4 >= 3528 && p4 <= 3589) return length >= 16; // JCB
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38) return length >= 14; // Diners Club
  if (p2 === 62) return length >= 16; // UnionPay
  return false;
}

/** Shapes whose digits are never a card number: a UUID, an IBAN-like reference. */
const NOT_A_CARD = [
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
  /(?<![\p{L}\p{N}])[A-Z]{2}\d{2}(?:[ -]?[A-Za-z\d]{4}){2,7}(?:[ -]?[A-Za-z\d]{1,3})?(?![\p{L}\p{N}])/gu,
];

/** The spans of `text` (start, end) that are never a card number, in order. */
function reservedSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const shape of NOT_A_CARD) {
    shape.lastIndex = 0;
    for (let m = shape.exec(text); m !== null; m = shape.exec(text)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

/** Whether `[start, end)` overlaps any of `spans`. */
const overlaps = (spans: [number, number][], start: number, end: number): boolean => spans.some(([s, e]) => s < end && start < e);

/** A phone number written with its `+`: a chain of digits right after a `+` that no digit or `=` (a form's space) comes before. */
function afterPhonePlus(text: string, start: number): boolean {
  if (text.charCodeAt(start - 1) !== 43) return false;
  const before = text.charCodeAt(start - 2);
  return before !== 61 && digitAt(text, start - 2) < 0;
}

/**
 * Whether `text` may hold a run of at least `MIN_DIGITS` digits joined by separators: the
 * digits of each stretch that only a letter or a character that can be no part of a
 * separator ends, counted in one pass. An upper bound of what the scan below finds, so a
 * text below it (most ids, paths and words) needs no scan at all.
 */
function mayHoldCardNumber(text: string): boolean {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 0xff10 && c <= 0xff19)) {
      if (++count >= MIN_DIGITS) return true;
    } else if (c < 128 ? ENDS_STRETCH[c] === 1 : !SEPARATORS.has(c)) count = 0;
  }
  return false;
}

/** The ASCII characters that end a stretch of digits: all but the separators, `%` and the `D` of `%2D`. */
const ENDS_STRETCH = Uint8Array.from({ length: 128 }, (_, c) => (SEPARATORS.has(c) || c === 37 || (c | 0x20) === 100 ? 0 : 1));

const FIRST_DIGIT = /[0-9\uff10-\uff19]/g;

/**
 * `text` with every card number replaced by `mask(digits)` (its digits in ASCII, without
 * separators). Anything else is left exactly as it is: ids, UUIDs, order and invoice numbers
 * without a scheme's prefix or joined to letters, phone numbers, dates, IBAN-like references.
 */
export function maskCardNumbers(text: string, mask: (digits: string) => string): string {
  if (!mayHoldCardNumber(text)) return text;
  let out = '';
  let copied = 0;
  const digits: number[] = [];
  const groups: { start: number; end: number; from: number; to: number }[] = [];
  let reserved: [number, number][] | undefined;
  FIRST_DIGIT.lastIndex = 0;
  for (let found = FIRST_DIGIT.exec(text); found !== null; found = FIRST_DIGIT.exec(text)) {
    // The groups of a run of digits joined by single separators (positions in the text, and in `digits`).
    digits.length = 0;
    groups.length = 0;
    let j = found.index;
    for (;;) {
      const start = j;
      const from = digits.length;
      for (let d = digitAt(text, j); d >= 0; d = digitAt(text, ++j)) digits.push(d);
      groups.push({ start, end: j, from, to: digits.length });
      const sep = separatorAt(text, j);
      if (sep === 0 || digitAt(text, j + sep) < 0) break;
      j += sep;
    }
    FIRST_DIGIT.lastIndex = j;
    if (digits.length < MIN_DIGITS || afterPhonePlus(text, found.index)) continue;
    const last = groups.length - 1;
    // The longest span of whole groups, from each group on, that is a card number.
    let g = 0;
    while (g < groups.length) {
      const from = groups[g]!.from;
      let best = -1;
      if (g > 0 || !letterAt(text, found.index - 1)) {
        let singleDigits = true;
        for (let k = g; k < groups.length; k++) {
          const to = groups[k]!.to;
          if (to - from > MAX_DIGITS) break;
          singleDigits &&= groups[k]!.to - groups[k]!.from === 1;
          if (k >= g + MAX_GROUPS && !singleDigits) break;
          if (to - from < MIN_DIGITS || (k === last && letterAt(text, groups[k]!.end))) continue;
          if (!schemeAt(digits, from, to) || !luhnAt(digits, from, to)) continue;
          reserved ??= reservedSpans(text);
          if (!overlaps(reserved, groups[g]!.start, groups[k]!.end)) best = k;
        }
      }
      if (best < 0) {
        g++;
        continue;
      }
      out += text.slice(copied, groups[g]!.start) + mask(digits.slice(from, groups[best]!.to).join(''));
      copied = groups[best]!.end;
      g = best + 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The mask of a card number the sandbox stores and shows: `•••• ` and its last four digits. */
export const cardNumberMask = (digits: string): string => `•••• ${digits.slice(-4)}`;

/**
 * `value` with every card number in its strings masked (`•••• 1111`), objects and arrays
 * walked; the same value when it holds none. The free text of a record (description,
 * customer, references, metadata values) goes through it before it is stored.
 */
export function withoutCardNumbers<T>(value: T): T {
  if (typeof value === 'string') return maskCardNumbers(value, cardNumberMask) as T;
  if (Array.isArray(value)) {
    const items = value.map((v: unknown) => withoutCardNumbers(v));
    return (items.some((v, i) => v !== value[i]) ? items : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | undefined;
    for (const [key, v] of Object.entries(value)) {
      const safe = withoutCardNumbers(v);
      if (safe !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = safe;
    }
    return (out ?? value) as T;
  }
  return value;
}

/** A key's words, lower case, letters and digits only (`security\u005fcode` decoded first). */
const keyWords = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

const CODE_KEYS = new Set([
  'cvv',
  'cid',
  'cvv2',
  'cvc',
  'cvc2',
  'cav2',
  'cvn',
  'cvn2',
  'csc',
  'cvd',
  'securitycode',
  'cardsecuritycode',
  'cardcode',
  'verificationcode',
  'cardverificationcode',
  'cardverificationvalue',
  'cardverificationnumber',
  'cardverification',
]);

/**
 * Whether `key` names a security code: `cvv`, `cvc`, `cvv2`, `security_code`, `securityCode`,
 * `card_verification_value`... in any casing and punctuation; for a bracketed or dotted
 * form key (`card[cvc]`, `payment_method.security_code`) its last part decides.
 */
export function isSecurityCodeKey(key: string): boolean {
  // Keys repeat from request to request (a schema's field names): a short key's answer is kept.
  // Only keys too short to hold a card number are kept, so no card data stays in memory.
  const short = key.length < KEPT_KEY_LENGTH;
  const known = short ? securityCodeKeys.get(key) : undefined;
  if (known !== undefined) return known;
  const parts = key.split(/[[\].]+/).filter(Boolean);
  const last = parts.length > 0 ? parts[parts.length - 1]! : key;
  const words = keyWords(last);
  const answer = CODE_KEYS.has(words) || words.endsWith('securitycode') || words.startsWith('cardverification');
  if (short) {
    if (securityCodeKeys.size >= KEPT_KEYS) securityCodeKeys.clear();
    securityCodeKeys.set(key, answer);
  }
  return answer;
}

/** Keys shorter than a card number's fewest digits, and at most this many of them, are kept by `isSecurityCodeKey`. */
const KEPT_KEY_LENGTH = 13;
const KEPT_KEYS = 2048;
const securityCodeKeys = new Map<string, boolean>();

/** A key as written in text, decoded: JSON escapes (`\u005f`) and percent-encoding (`%5F`, `+`). */
function decodedKey(raw: string): string {
  let key = raw;
  if (key.includes('\\')) {
    try {
      key = JSON.parse(`"${key}"`) as string;
    } catch {
      key = key.replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  }
  if (key.includes('%') || key.includes('+')) {
    try {
      key = decodeURIComponent(key.replace(/\+/g, ' '));
    } catch {
      // not percent-encoding after all
    }
  }
  return key;
}

const REDACTED = '[redacted]';
/** A JSON member (in text that may not parse): a quoted key, a colon, and its value (a string or a bare token). */
const JSON_MEMBER = /"((?:[^"\\\n]|\\.){1,100})"(\s*:\s*)("(?:[^"\\\n]|\\.)*"|[^\s,}\]]*)/g;
/** `key=value` (forms, query strings) and `key: value` (text): a bare key (tried only where a key can start), then its value up to a delimiter. */
const PAIR = /(?<![A-Za-z0-9_%.[\]\\-])([A-Za-z0-9_%.[\]\\-]{2,100})(\s*[=:]\s*)("(?:[^"\\\n]|\\.)*"|[^\s&;,"}\]]*)/g;
/** A multipart part's name and, after its headers, its value. */
const MULTIPART_PART = /(\bname="([^"\r\n]{1,100})"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n){0,8}\r?\n)([^\r\n]*)/g;
/** Cheap test: could `text` hold a security-code key at all? */
const MAY_HOLD_CODE_KEY = /cv|cs|cid|cav|secur|verif|code|\\u|%/i;

/** `text` with the value of every security-code key replaced by `[redacted]`. */
export function redactSecurityCodes(text: string): string {
  if (!MAY_HOLD_CODE_KEY.test(text)) return text;
  return text
    .replace(MULTIPART_PART, (m, head: string, name: string) => (isSecurityCodeKey(decodedKey(name)) ? `${head}${REDACTED}` : m))
    .replace(JSON_MEMBER, (m, key: string, colon: string) => (isSecurityCodeKey(decodedKey(key)) ? `"${key}"${colon}"${REDACTED}"` : m))
    .replace(PAIR, (m, key: string, sep: string, value: string) =>
      value !== '' && value !== `"${REDACTED}"` && isSecurityCodeKey(decodedKey(key)) ? `${key}${sep}${REDACTED}` : m,
    );
}
