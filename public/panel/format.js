/**
 * How the panel shows numbers and times. Amounts use the sandbox's own ISO 4217 exponents
 * (`GET /_sandbox/currencies`), the same table the webhooks use, because the browser's
 * Intl data differs from ISO 4217 for some currencies (IDR, HUF, IQD...). Times are shown
 * in the browser's time zone.
 */

/** @type {Record<string, number>} */
let exponents = {};

/** Installs the exponent table from the control API (every currency the sandbox accepts). @param {Record<string, number>} table */
export function setExponents(table) {
  exponents = table;
}

/** Minor-unit exponent of a currency. @param {string} currency */
export function exponentOf(currency) {
  return exponents[currency] ?? 2;
}

/**
 * Minor units to a major-unit decimal string with digit grouping: 100001 USD -> "1,000.01".
 * @param {number} amount
 * @param {string} currency
 */
export function toMajor(amount, currency) {
  const exponent = exponentOf(currency);
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(amount)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return exponent === 0 ? sign + whole : `${sign}${whole}.${digits.slice(digits.length - exponent)}`;
}

/** Minor units to the plain decimal string a person types back: 1050 USD -> "10.50". @param {number} amount @param {string} currency */
export function toMajorPlain(amount, currency) {
  return toMajor(amount, currency).replace(/,/g, '');
}

/** "10.50 USD". @param {number} amount @param {string} currency */
export function money(amount, currency) {
  return `${toMajor(amount, currency)} ${currency}`;
}

/**
 * Parses a typed major-unit amount ("2.5", "1,000.01") into minor units, or returns an
 * error message. More fraction digits than the currency has is an error, not a rounding.
 * @param {string} text
 * @param {string} currency
 * @returns {{ minor: number } | { error: string }}
 */
export function parseMajor(text, currency) {
  const exponent = exponentOf(currency);
  const cleaned = String(text).trim().replace(/[,\s]/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return { error: `Type an amount in ${currency}, such as ${exponent === 0 ? '500' : '2.50'}` };
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    return {
      error: exponent === 0 ? `${currency} has no minor units: type a whole number` : `${currency} has ${exponent} decimal places at most`,
    };
  }
  const minor = Number(match[1] + fraction.padEnd(exponent, '0'));
  if (!Number.isSafeInteger(minor) || minor <= 0) return { error: 'The amount must be more than zero' };
  return { minor };
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const fullFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});
const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** @param {Date} a @param {Date} b */
const sameDay = (a, b) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** A short time for lists: "10:02:15" today (sandbox clock), else "22 Nov 10:02:15". @param {string} iso @param {number} [nowMs] */
export function shortTime(iso, nowMs) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const time = timeFormat.format(date);
  return nowMs !== undefined && sameDay(date, new Date(nowMs)) ? time : `${dayFormat.format(date)} ${time}`;
}

/** "Sat, 22 Nov 2026, 10:02:15 UTC". @param {string | number} isoOrMs */
export function fullTime(isoOrMs) {
  const date = new Date(isoOrMs);
  return Number.isNaN(date.getTime()) ? String(isoOrMs) : fullFormat.format(date);
}

const clockDate = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const clockTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });

/** The sandbox clock in two parts: { date: "Sun, Nov 22, 2026", time: "10:02:15 AM UTC" }. @param {number} ms */
export function clockParts(ms) {
  const date = new Date(ms);
  return { date: clockDate.format(date), time: clockTime.format(date) };
}

/** "22 Nov 2026" from a date or date-time. @param {string} iso */
export function shortDate(iso) {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00`) : new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/** A clock offset in seconds as "+1d 2h 5m", or "" when zero. @param {number} seconds */
export function offsetText(seconds) {
  if (seconds < 1) return '';
  let rest = Math.round(seconds);
  const parts = [];
  for (const [unit, size] of /** @type {const} */ ([
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ])) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n}${unit}`);
    if (parts.length === 2) break;
  }
  return `+${parts.join(' ')}`;
}

/** "12 ms", "1.3 s". @param {number} ms */
export function duration(ms) {
  return ms < 1000 ? `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A long id shortened for a list: "7099948d…4591"; the full id stays in the title and the copy. @param {string} id */
export function shortId(id) {
  return id.length > 16 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}
