/**
 * Card data found by content, in any text (issue 22): a card number is any run of 13 to 19
 * digits that passes the Luhn check, its groups separated or not by spaces, dashes, `+` or
 * `%20` (a form or a query string); a security code is the value of any key that names one
 * (`cvv`, `cvc2`, `security_code`, `securityCode`, `card[cvc]`, `card_verification_value`, in
 * any casing, JSON-escaped `security\u005fcode` or percent-encoded `security%5Fcode`), in
 * JSON (valid or not), a form or multipart body, a query string or `key: value` text.
 * Both scans are linear: the digit scan walks the text once (each start tries at most 19
 * digits), and the key scan uses patterns without nested quantifiers.
 * The HTTP layer redacts request data with them (http/redact.ts), and so does the logger.
 */

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;
/** A card number is written in at most five groups (4-4-4-4-3); a window of more is not tried. */
const MAX_GROUPS = 6;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The length of a separator between digit groups at `i` (space, dash, `+`, `%20`, `%2D`), or 0. */
function separatorAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 32 || c === 45 || c === 43 || c === 0xa0) return 1;
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

const FIRST_DIGIT = /\d/g;

/**
 * `text` with every card number replaced by `mask(digits)`. Digits inside a longer run of
 * digits are left alone (an id, a timestamp), as are runs that fail the Luhn check.
 */
export function maskCardNumbers(text: string, mask: (digits: string) => string): string {
  let out = '';
  let copied = 0;
  const n = text.length;
  const digits: number[] = [];
  const groups: { start: number; end: number; from: number; to: number }[] = [];
  FIRST_DIGIT.lastIndex = 0;
  for (let found = FIRST_DIGIT.exec(text); found !== null; found = FIRST_DIGIT.exec(text)) {
    // The groups of a run of digits joined by single separators (positions in the text, and in `digits`).
    digits.length = 0;
    groups.length = 0;
    let j = found.index;
    for (;;) {
      const start = j;
      const from = digits.length;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (!isDigit(c)) break;
        digits.push(c - 48);
        j++;
      }
      groups.push({ start, end: j, from, to: digits.length });
      const sep = separatorAt(text, j);
      if (sep === 0 || !isDigit(text.charCodeAt(j + sep))) break;
      j += sep;
    }
    FIRST_DIGIT.lastIndex = j;
    // The longest span of whole groups, from each group on, that is a card number.
    let g = 0;
    while (g < groups.length) {
      const from = groups[g]!.from;
      let best = -1;
      for (let k = g; k < groups.length && k < g + MAX_GROUPS; k++) {
        const length = groups[k]!.to - from;
        if (length > MAX_DIGITS) break;
        if (length >= MIN_DIGITS && luhnAt(digits, from, groups[k]!.to)) best = k;
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

/** A key's words, lower case, letters and digits only (`security\u005fcode` decoded first). */
const keyWords = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

const CODE_KEYS = new Set(['cvv', 'cvv2', 'cvc', 'cvc2', 'cav2', 'cvn', 'cvn2', 'csc', 'cvd', 'securitycode', 'cardsecuritycode', 'cardcode', 'verificationcode', 'cardverificationcode', 'cardverificationvalue', 'cardverificationnumber', 'cardverification']);

/**
 * Whether `key` names a security code: `cvv`, `cvc`, `cvv2`, `security_code`, `securityCode`,
 * `card_verification_value`... in any casing and punctuation; for a bracketed or dotted
 * form key (`card[cvc]`, `payment_method.security_code`) its last part decides.
 */
export function isSecurityCodeKey(key: string): boolean {
  const parts = key.split(/[[\].]+/).filter(Boolean);
  const last = parts.length > 0 ? parts[parts.length - 1]! : key;
  const words = keyWords(last);
  return CODE_KEYS.has(words) || words.endsWith('securitycode') || words.startsWith('cardverification');
}

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
    .replace(PAIR, (m, key: string, sep: string, value: string) => (value !== '' && value !== `"${REDACTED}"` && isSecurityCodeKey(decodedKey(key)) ? `${key}${sep}${REDACTED}` : m));
}
