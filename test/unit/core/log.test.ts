/**
 * The logger: levels, the text and JSON-lines formats, --quiet, and redaction of card
 * numbers, security codes, JWTs, bearer tokens and API keys in every line.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, redact, repeatedFailure, repeatedFailures, type LoggerOptions } from '../../../src/core/log.js';
import { DIRECT, jwt } from '../../support/app.js';

function capture(options: LoggerOptions = {}): { out: string[]; err: string[]; logger: ReturnType<typeof createLogger> } {
  const out: string[] = [];
  const err: string[] = [];
  const logger = createLogger({
    ...options,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    now: () => new Date('2026-01-02T03:04:05Z'),
  });
  return { out, err, logger };
}

describe('createLogger', () => {
  it('text: info to stdout as given, warnings and errors to stderr prefixed, debug hidden at the default level', () => {
    const { out, err, logger } = capture();
    logger.debug('d', 'detail');
    logger.info('request', 'GET /v4/transactions 200 1.0ms');
    logger.warn('w', 'careful');
    logger.error('e', 'it broke', { err: new Error('boom') });
    expect(out).toEqual(['GET /v4/transactions 200 1.0ms']);
    expect(err[0]).toBe('payment-sandbox: careful');
    expect(err[1]).toMatch(/^payment-sandbox: it broke: Error: boom\n\s+at /);
  });

  it('text: a full disk is one line with its message, no stack trace', () => {
    const { err, logger } = capture();
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    logger.error('e', 'saving failed', { err: full });
    expect(err).toEqual(['payment-sandbox: saving failed: database or disk is full']);
  });

  it('json: one JSON object a line with time, level, event, the fields and msg', () => {
    const { out, err, logger } = capture({ format: 'json', level: 'debug' });
    logger.debug('d', 'detail', { n: 1 });
    logger.error('e', 'it broke', { err: new Error('boom') });
    expect(out.map((l) => JSON.parse(l) as unknown)).toEqual([
      { time: '2026-01-02T03:04:05.000Z', level: 'debug', event: 'd', n: 1, msg: 'detail' },
    ]);
    expect(JSON.parse(err[0]!)).toEqual({
      time: '2026-01-02T03:04:05.000Z',
      level: 'error',
      event: 'e',
      err: { name: 'Error', message: 'boom' },
      msg: 'it broke',
    });
  });

  it('quiet: only warnings and errors', () => {
    const { out, err, logger } = capture({ quiet: true });
    logger.info('i', 'shown without --quiet');
    logger.warn('w', 'careful');
    expect(out).toEqual([]);
    expect(err).toEqual(['payment-sandbox: careful']);
  });

  it('redacts in text and in JSON fields', () => {
    const token = jwt({ sub: 'x' });
    const { out, logger } = capture({ format: 'json' });
    logger.info('x', `card 4111 1111 1111 1111 key ${DIRECT.api_key}`, {
      headers: { authorization: `Bearer ${token}` },
      body: { number: '4111111111111111', security_code: '123' },
      note: token,
    });
    const line = out[0]!;
    for (const secret of ['4111111111111111', '4111 1111 1111 1111', DIRECT.api_key, token, '"123"']) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({
      msg: 'card ****1111 key sk_test_[redacted]',
      body: { number: '****1111', security_code: '[redacted]' },
      note: '[redacted JWT]',
    });
  });
});

describe('redact', () => {
  it.each([
    ['4242424242424242', '****4242'],
    ['4000-0566-5566-5556', '****5556'],
    ['{"security_code":"987"}', '{"security_code":"[redacted]"}'],
    ['Authorization: Bearer abc.def', 'Authorization: Bearer [redacted]'],
    ['sk_live_0123abc', 'sk_live_[redacted]'],
  ])('%s -> %s', (text, shown) => {
    expect(redact(text)).toBe(shown);
  });

  it('leaves numbers that are not card numbers (they fail the Luhn check) alone', () => {
    expect(redact('at 1767323045000 ms')).toBe('at 1767323045000 ms');
  });
});

describe('repeatedFailure', () => {
  it('logs to the logger it is given: the first failure of a run, a count at most once per period, and the recovery', () => {
    const { err, logger } = capture();
    let now = 0;
    const failures = repeatedFailure(logger, 'delivery.crashed', 'delivery failed', 60_000, () => now);
    failures.failed(new Error('disk full'));
    now = 50_000;
    failures.failed(new Error('disk full'));
    now = 61_000;
    failures.failed(new Error('disk full'));
    failures.recovered();
    expect(err.map((l) => l.split(':').slice(0, 2).join(':'))).toEqual([
      'payment-sandbox: delivery failed',
      'payment-sandbox: delivery failed (3 times since the first; still failing)',
      'payment-sandbox: delivery failed',
    ]);
    expect(err[2]).toMatch(/working again after 3 failures/);
  });

  it('a run that flips between working and failing is one run: one first line, one recovery, then a count', () => {
    const { err, logger } = capture();
    let now = 0;
    const failures = repeatedFailure(logger, 'delivery.crashed', 'delivery failed', 60_000, () => now);
    for (let i = 0; i < 20; i++) {
      now += 250;
      failures.failed(new Error('disk full'));
      failures.recovered();
    }
    expect(err.map((l) => l.split(':').slice(0, 2).join(':'))).toEqual([
      'payment-sandbox: delivery failed',
      'payment-sandbox: delivery failed',
    ]);
    expect(err[1]).toMatch(/working again after 1 failure$/);
    now = 60_250; // a minute after the first line, still within a minute of the last failure
    failures.failed(new Error('disk full'));
    failures.recovered();
    expect(err.slice(2).map((l) => l.split(':').slice(0, 2).join(':'))).toEqual([
      'payment-sandbox: delivery failed (21 times since the first; still failing)',
      'payment-sandbox: delivery failed',
    ]);
    expect(err[3]).toMatch(/working again after 21 failures$/);
    now += 120_000; // a quiet while: the next failure starts a new run
    failures.failed(new Error('disk full'));
    expect(err[4]).toMatch(/^payment-sandbox: delivery failed: Error: disk full/);
  });

  it('repeatedFailures keeps one run per key: each key is logged the first time', () => {
    const { err, logger } = capture();
    const failures = repeatedFailures(logger, 'scheduler.failed', (work) => `${work} failed`);
    failures.failed('webhook deliveries', new Error('x'));
    failures.failed('webhook deliveries', new Error('x'));
    failures.failed('subscription billing', new Error('x'));
    expect(err.map((l) => l.split(':')[1]!.trim())).toEqual(['webhook deliveries failed', 'subscription billing failed']);
  });
});
