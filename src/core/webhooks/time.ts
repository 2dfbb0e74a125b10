/**
 * Webhook time stamps: an instant as wall-clock digits in an IANA time zone (spec
 * "Authentication" item 7 and "Events": `timestamp`/`payment_time` are YYYYMMDDHHMMSS,
 * `account_date` is YYYYMMDD, both in the zone named by the `timezone` header).
 */

/** One formatter per zone: building an Intl.DateTimeFormat is costly, using one is not. */
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Bounds the cache: Intl accepts zone names in any letter case, so the key space is large. */
const MAX_CACHED_FORMATTERS = 256;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size >= MAX_CACHED_FORMATTERS) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The 14 digits YYYYMMDDHHMMSS of the wall-clock time of instant `at` in `timeZone`,
 * e.g. 2026-03-08T07:30:00Z in America/New_York -> "20260308033000".
 * @throws RangeError if `at` is an invalid Date or `timeZone` is not a valid zone name.
 */
export function compactTimestamp(at: Date, timeZone: string): string {
  const ms = at.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Invalid Date');
  // A burst of webhooks stamps the same second over and over: the last one per zone is kept.
  const second = Math.floor(ms / 1000);
  const cached = lastStamps.get(timeZone);
  if (cached !== undefined && cached.second === second) return cached.text;
  const text = formatCompact(at, timeZone);
  if (cached === undefined && lastStamps.size >= MAX_CACHED_FORMATTERS) lastStamps.clear();
  lastStamps.set(timeZone, { second, text });
  return text;
}

/** The last second stamped in each zone, with its digits (`compactTimestamp`). */
const lastStamps = new Map<string, { second: number; text: string }>();

function formatCompact(at: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const { type, value } of formatterFor(timeZone).formatToParts(at)) parts[type] = value;
  // Some ICU versions print midnight as "24" even with h23; it is hour 00 of the same day.
  const hour = parts.hour === '24' ? '00' : parts.hour;
  return parts.year.padStart(4, '0') + parts.month + parts.day + hour + parts.minute + parts.second;
}

/**
 * The 8 digits YYYYMMDD of the calendar date of instant `at` in `timeZone`.
 * @throws RangeError if `at` is an invalid Date or `timeZone` is not a valid zone name.
 */
export function compactDate(at: Date, timeZone: string): string {
  return compactTimestamp(at, timeZone).slice(0, 8);
}

/**
 * Whether `name` is a time-zone name Intl accepts (IANA names such as "Asia/Shanghai",
 * "UTC", "Etc/GMT+5"). Numeric offsets like "+08:00" are not zone names and are rejected.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}
