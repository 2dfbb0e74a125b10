/**
 * The terminal's line of each change it prints, from a fake change feed through a logger whose
 * lines are kept: a delivered attempt, a failed one with its retry, the last failed one, an
 * attempt with no target, a request line (only with `--log`), and the JSON line of each.
 * The bin as a developer keeps it open: e2e/terminal.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.js';
import { attachTerminal, displayUrl, type ChangeFeed } from '../../../src/terminal.js';

/** A change feed whose events a test emits, keeping which types were subscribed. */
function fakeFeed() {
  const listeners: { types: readonly string[]; listener: (event: { type: string; data: unknown }) => void }[] = [];
  const feed: ChangeFeed = {
    subscribeTo(types, listener) {
      const entry = { types, listener };
      listeners.push(entry);
      return () => void listeners.splice(listeners.indexOf(entry), 1);
    },
  };
  const emit = (type: string, data: unknown): void => {
    for (const { types, listener } of [...listeners]) if (types.includes(type)) listener({ type, data });
  };
  return { feed, emit, listeners };
}

function terminal(requests: boolean, format: 'text' | 'json' = 'text') {
  const lines: string[] = [];
  const { feed, emit, listeners } = fakeFeed();
  const logger = createLogger({
    format,
    out: (line) => void lines.push(line),
    err: (line) => void lines.push(line),
    now: () => new Date(0),
  });
  const stop = attachTerminal(feed, logger, { requests });
  return { lines, emit, listeners, stop };
}

const attempt = {
  id: 'dlv_1',
  kind: 'payment',
  resource_id: 'tx_1',
  url: 'http://user:secret@127.0.0.1:3000/hook?token=abc',
  number: 1,
  status: 200,
  ok: true,
  error: null,
  next_attempt_at: null,
  at: '2026-11-22T10:00:05.000Z',
};

describe('the terminal lines', () => {
  it('a delivered attempt: the time, the kind, the resource, the target without credentials or query values, the status', () => {
    const t = terminal(false);
    t.emit('delivery.attempted', attempt);
    expect(t.lines).toHaveLength(1);
    expect(t.lines[0]).toContain(
      '2026-11-22T10:00:05.000Z webhook payment tx_1 -> http://127.0.0.1:3000/hook?token=***  200 delivered (attempt 1)',
    );
    expect(t.lines[0]).not.toContain('secret');
  });

  it('a failed attempt says its error and its next retry on the sandbox clock; the last one says to resend', () => {
    const t = terminal(false);
    t.emit('delivery.attempted', {
      ...attempt,
      ok: false,
      status: 500,
      error: 'merchant answered HTTP 500',
      next_attempt_at: '2026-11-22T10:01:05.000Z',
    });
    t.emit('delivery.attempted', { ...attempt, ok: false, status: null, error: null, number: 8 });
    t.emit('delivery.attempted', { kind: 7, url: null, ok: false });
    expect(t.lines[0]).toMatch(/ 500 merchant answered HTTP 500 \(attempt 1\); next retry 2026-11-22T10:01:05.000Z \(sandbox clock\)$/);
    expect(t.lines[1]).toMatch(/ ERR failed \(attempt 8\); no more retries \(resend from the panel\)$/);
    expect(t.lines[2]).toMatch(/ webhook webhook {2}-> \(no notification URL\) {2}ERR failed \(attempt \?\); no more retries/);
  });

  it('requests are printed only with --log, each as method, path, status and duration', () => {
    const quiet = terminal(false);
    expect(quiet.listeners[0]!.types).toEqual(['delivery.attempted']);
    quiet.emit('request.logged', { method: 'POST', path: '/v4/transactions', status: 201, duration_ms: 12.54 });
    expect(quiet.lines).toEqual([]);

    const t = terminal(true);
    t.emit('request.logged', { method: 'POST', path: '/v4/transactions', status: 201, duration_ms: 12.54 });
    t.emit('request.logged', { path: 5 });
    t.emit('request.logged', 'not an object');
    t.emit('delivery.attempted', ['not', 'an', 'object']);
    expect(t.lines).toHaveLength(2);
    expect(t.lines[0]).toMatch(/POST \/v4\/transactions 201 12\.5ms$/);
    expect(t.lines[1]).toMatch(/\? \? \?$/);
  });

  it('as JSON lines, each line carries the fields of the attempt or the request', () => {
    const t = terminal(true, 'json');
    t.emit('delivery.attempted', { ...attempt, ok: false, status: 503, error: 'HTTP 503', next_attempt_at: '2026-11-22T10:01:05.000Z' });
    t.emit('request.logged', { method: 'GET', path: '/v4/buyers', status: 200, duration_ms: 1 });
    const [delivery, request] = t.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(delivery).toMatchObject({
      delivery_id: 'dlv_1',
      kind: 'payment',
      resource_id: 'tx_1',
      url: 'http://127.0.0.1:3000/hook?token=***',
      attempt: 1,
      ok: false,
      status: 503,
      error: 'HTTP 503',
      next_attempt_at: '2026-11-22T10:01:05.000Z',
    });
    expect(request).toMatchObject({ method: 'GET', path: '/v4/buyers', status: 200, duration_ms: 1 });
  });

  it('stopping unsubscribes; a target that is not a URL is shown as such', () => {
    const t = terminal(true);
    t.stop();
    expect(t.listeners).toEqual([]);
    t.emit('delivery.attempted', attempt);
    expect(t.lines).toEqual([]);
    expect(displayUrl('not a url')).toBe('(invalid URL)');
    expect(displayUrl(null)).toBe('(no notification URL)');
  });
});
