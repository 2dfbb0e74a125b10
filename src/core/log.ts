/**
 * The sandbox's logger: levels (debug < info < warn < error), a text format for a
 * person at a terminal and a JSON-lines format for CI logs (`--log-format text|json`), and
 * `--quiet` (only warnings and errors). Every line passes through `redact` first, so card
 * numbers, security codes, JWTs and bearer tokens never reach a terminal or a log file.
 *
 * There is no process-wide logger: the CLI (or `startServer`, or the composition root when
 * nobody hands one in) makes one with `createLogger`, and every module that logs takes that
 * `Logger` as a dependency; nothing else writes to the console.
 */
import { isSecurityCodeKey, maskCardNumbers, redactSecurityCodes } from './redaction/card-data.js';
import { redactSecrets } from './redaction/secrets.js';
import { isStorageFull } from './domain/errors.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'text' | 'json';

/** Fields of one record; in JSON they become keys of the line, in text only `text` is shown. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  /** Diagnostic detail; shown only when the logger's level is `debug`. */
  debug(event: string, text: string, fields?: LogFields): void;
  /** What a developer keeps the terminal open for (a delivery attempt, a request with --log). */
  info(event: string, text: string, fields?: LogFields): void;
  /** Something went wrong but the sandbox goes on. */
  warn(event: string, text: string, fields?: LogFields): void;
  /** An unexpected failure; `fields.err` (an Error) adds its stack in text (a full disk: its message), its message in JSON. */
  error(event: string, text: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  format?: LogFormat;
  /** Lowest level written (default `info`). */
  level?: LogLevel;
  /** Same as `level: 'warn'`. */
  quiet?: boolean;
  /** Where debug and info go (default: process.stdout). */
  out?: (line: string) => void;
  /** Where warn and error go (default: process.stderr). */
  err?: (line: string) => void;
  /** Wall-clock time of a record (JSON `time`); tests may fix it. */
  now?: () => Date;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A record's name for the error it carries (`{ name, message }`, no stack in JSON lines). */
function describeError(value: unknown): { name: string; message: string } | unknown {
  return value instanceof Error ? { name: value.name, message: redact(value.message) } : value;
}

/** Redacts each string inside a field value (objects and arrays are walked). */
function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return describeError(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      /security_code|cvv|cvc|secret|token|authorization|password/i.test(k) || isSecurityCodeKey(k)
        ? '[redacted]'
        : redactValue(v, depth + 1),
    ]),
  );
}

/**
 * Removes what must never be printed: card numbers (13 to 19 digits, possibly grouped by
 * spaces or dashes, passing the Luhn check) become `****1111`; JWTs, `Bearer` tokens and `sk_` API keys become
 * `[redacted]`; security code values (`security_code`, `cvv`, `securityCode`, in any form) are dropped.
 */
export function redact(text: string): string {
  const masked = redactSecrets(text).replace(/("?(?:security_code|cvv|cvc)"?\s*[:=]\s*)"?\d{3,4}"?/gi, '$1"[redacted]"');
  return redactSecurityCodes(maskCardNumbers(masked, (digits) => `****${digits.slice(-4)}`));
}

/** Makes a logger that writes lines in `format` at `level` and above. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? 'text';
  const min = RANK[options.quiet ? 'warn' : (options.level ?? 'info')];
  // A closed stream (`payment-sandbox | head -1`) is skipped: see stdio.ts.
  const out = options.out ?? ((line: string) => void (process.stdout.writable && process.stdout.write(line + '\n')));
  const err = options.err ?? ((line: string) => void (process.stderr.writable && process.stderr.write(line + '\n')));
  const now = options.now ?? (() => new Date());
  const write = (level: LogLevel, event: string, text: string, fields: LogFields = {}): void => {
    if (RANK[level] < min) return;
    const sink = RANK[level] >= RANK.warn ? err : out;
    if (format === 'json') {
      const record: LogFields = { time: now().toISOString(), level, event };
      for (const [key, value] of Object.entries(fields)) {
        record[key] = key === 'err' ? describeError(value) : redactValue(value);
      }
      record.msg = redact(text);
      sink(JSON.stringify(record));
      return;
    }
    let line = redact(text);
    if (RANK[level] >= RANK.warn) line = `payment-sandbox: ${line}`;
    const cause = fields.err;
    // A full disk is the machine's state, not a bug: its message, never a stack trace.
    if (cause instanceof Error) line += `: ${redact((isStorageFull(cause) ? undefined : cause.stack) ?? cause.message)}`;
    else if (cause !== undefined) line += `: ${redact(String(cause))}`;
    sink(line);
  };
  return {
    debug: (event, text, fields) => write('debug', event, text, fields),
    info: (event, text, fields) => write('info', event, text, fields),
    warn: (event, text, fields) => write('warn', event, text, fields),
    error: (event, text, fields) => write('error', event, text, fields),
  };
}

/** A failure that may repeat many times a second (a full disk): see `repeatedFailure`. */
export interface RepeatedFailure {
  /** Logs the first failure of a run in full; later ones only as a count, at most once per `everyMs`. */
  failed(err: unknown): void;
  /** Ends a run of failures with one line saying how many there were (nothing if none). */
  recovered(): void;
}

/**
 * Logs a failure that repeats once, not once per occurrence: a full disk made the dispatcher
 * log "delivery failed unexpectedly" 431,000 times (268 MB) in 5 minutes. The first failure of
 * a run is logged with its error; while it goes on, one summary line at most every `everyMs`;
 * `recovered()` says once that it works again. A run ends only after `everyMs` without a
 * failure: on a nearly full disk some writes fit and others do not, and a recovery followed by
 * a failure within the period is the same run (no new first line, no second "working again"
 * until a failure line has been written since the last one).
 */
export function repeatedFailure(
  logger: Logger,
  event: string,
  text: string,
  everyMs = 60_000,
  now: () => number = () => performance.now(),
): RepeatedFailure {
  /** Failures in this run. */
  let count = 0;
  let lastLine = 0;
  let lastFailure = 0;
  /** A failure line was written and no recovery line since. */
  let unrecovered = false;
  return {
    failed(err) {
      const at = now();
      if (count > 0 && at - lastFailure >= everyMs) count = 0; // a quiet while: a new run
      lastFailure = at;
      count += 1;
      if (count === 1) {
        logger.error(event, text, { err });
        lastLine = at;
        unrecovered = true;
      } else if (at - lastLine >= everyMs) {
        logger.error(event, `${text} (${count} times since the first; still failing)`, { err });
        lastLine = at;
        unrecovered = true;
      }
    },
    recovered() {
      if (!unrecovered) return;
      logger.warn(`${event}.recovered`, `${text}: working again after ${count} failure${count === 1 ? '' : 's'}`, { failures: count });
      unrecovered = false;
    },
  };
}

/**
 * One `repeatedFailure` per key (the scheduler's timed works, each run 4 times a second):
 * `failed(key, err)` logs `textOf(key)` the first time of a run for that key only.
 */
export function repeatedFailures(
  logger: Logger,
  event: string,
  textOf: (key: string) => string,
): { failed(key: string, err: unknown): void } {
  const byKey = new Map<string, RepeatedFailure>();
  return {
    failed(key, err) {
      let failures = byKey.get(key);
      if (!failures) byKey.set(key, (failures = repeatedFailure(logger, event, textOf(key))));
      failures.failed(err);
    },
  };
}
