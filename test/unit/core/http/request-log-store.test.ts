/**
 * The request log written in batches (store/request-log.ts): an entry gets its id at once and
 * is written with the others queued by then, in one transaction, when the queue is full or a
 * few milliseconds later; every read, reset and close writes the queue
 * first, ids are never reused, and the retention limit still holds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestLogEntry } from '../../../../src/core/http/ports.js';
import { FLUSH_AFTER_MS, FLUSH_AT } from '../../../../src/core/http/request-log-store.js';
import { openStore, type SqliteStore } from '../../../../src/sqlite-store.js';

const entry = (path: string, extra: Partial<RequestLogEntry> = {}): Omit<RequestLogEntry, 'seq'> => ({
  account_id: 'acc_1',
  method: 'GET',
  path,
  status: 200,
  idempotency_key: null,
  replayed: false,
  duration_ms: 1.5,
  request_body: null,
  response_body: null,
  warnings: [],
  at: 1_000,
  answer_delivered: null,
  ...extra,
});

const stored = (store: SqliteStore): number => store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM request_log').get()!.n;

describe('the request log, written in batches', () => {
  const open: SqliteStore[] = [];
  const dirs: string[] = [];
  const store = (path = ':memory:', limit?: number): SqliteStore => {
    const s = openStore(
      path,
      (err) => {
        throw err;
      },
      { requestLogLimit: limit },
    );
    open.push(s);
    return s;
  };
  afterEach(() => {
    vi.useRealTimers();
    for (const s of open.splice(0)) if (s.db.open) s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('gives each entry its id at once, and a read sees every queued entry with it', () => {
    const s = store();
    const ids = [1, 2, 3].map((i) =>
      s.httpRecords.requestLog.insert(entry(`/v4/transactions/${i}`, { warnings: [`w${i}`], replayed: i === 2 })),
    );
    expect(ids).toEqual([ids[0], ids[0]! + 1, ids[0]! + 2]);
    expect(stored(s)).toBe(0); // queued, not yet written
    const rows = s.httpRecords.requestLog.pageAll({ limit: 10 }).rows;
    expect(rows.map((r) => [r.seq, r.path, r.replayed, r.warnings])).toEqual([
      [ids[2], '/v4/transactions/3', false, ['w3']],
      [ids[1], '/v4/transactions/2', true, ['w2']],
      [ids[0], '/v4/transactions/1', false, ['w1']],
    ]);
    s.httpRecords.requestLog.insert(entry('/v4/buyers'));
    expect(s.httpRecords.requestLog.page('acc_1', { limit: 1 }).rows[0]!.path).toBe('/v4/buyers');
    s.httpRecords.requestLog.insert(entry('/v4/refunds'));
    expect(s.httpRecords.requestLog.find({ path: '/v4/refunds' }, { limit: 5 }).rows).toHaveLength(1);
  });

  it("marks a create's answer undelivered, queued or written, and leaves a request that is no create alone", () => {
    const s = store();
    const log = s.httpRecords.requestLog;
    const written = log.insertNow(entry('/v4/transactions', { method: 'POST', answer_delivered: true }));
    const queued = log.insert(entry('/v4/transactions', { method: 'POST', answer_delivered: true }));
    const read = log.insert(entry('/v4/transactions'));
    log.markUndelivered(written);
    log.markUndelivered(queued);
    log.markUndelivered(read);
    const rows = log.pageAll({ limit: 10 }).rows;
    expect(rows.map((r) => [r.seq, r.answer_delivered])).toEqual([
      [read, null],
      [queued, false],
      [written, false],
    ]);
  });

  it('writes the queue when it is full, and a few milliseconds after its first entry otherwise', () => {
    vi.useFakeTimers();
    const s = store();
    for (let i = 0; i < FLUSH_AT - 1; i++) s.httpRecords.requestLog.insert(entry(`/v4/x/${i}`));
    expect(stored(s)).toBe(0);
    s.httpRecords.requestLog.insert(entry('/v4/full'));
    expect(stored(s)).toBe(FLUSH_AT);
    s.httpRecords.requestLog.insert(entry('/v4/later'));
    expect(stored(s)).toBe(FLUSH_AT);
    vi.advanceTimersByTime(FLUSH_AFTER_MS);
    expect(stored(s)).toBe(FLUSH_AT + 1);
  });

  it('keeps only the newest entries under a retention limit', () => {
    const s = store(':memory:', 3);
    for (let i = 1; i <= 10; i++) s.httpRecords.requestLog.insert(entry(`/v4/${i}`));
    expect(s.httpRecords.requestLog.pageAll({ limit: 50 }).rows.map((r) => r.path)).toEqual(['/v4/10', '/v4/9', '/v4/8']);
    expect(stored(s)).toBe(3);
  });

  it('a reset empties the queued entries too, and ids are never reused after it', () => {
    const s = store();
    const first = s.httpRecords.requestLog.insert(entry('/v4/before'));
    s.httpRecords.requestLog.pageAll({ limit: 1 }); // written
    const queued = s.httpRecords.requestLog.insert(entry('/v4/queued'));
    s.wipe();
    expect(s.httpRecords.requestLog.pageAll({ limit: 10 }).rows).toEqual([]);
    const after = s.httpRecords.requestLog.insert(entry('/v4/after'));
    expect(after).toBeGreaterThan(queued);
    expect(queued).toBeGreaterThan(first);
    expect(s.httpRecords.requestLog.pageAll({ limit: 10 }).rows.map((r) => r.seq)).toEqual([after]);
  });

  it('close writes the queue; a reopened database goes on from the last id, even after a reset emptied the log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'request-log-'));
    dirs.push(dir);
    const file = join(dir, 'sandbox.db');
    const a = store(file);
    a.httpRecords.requestLog.insert(entry('/v4/one'));
    const last = a.httpRecords.requestLog.insert(entry('/v4/two'));
    a.close();
    const b = store(file);
    expect(b.httpRecords.requestLog.pageAll({ limit: 10 }).rows.map((r) => r.path)).toEqual(['/v4/two', '/v4/one']);
    expect(b.httpRecords.requestLog.insert(entry('/v4/three'))).toBe(last + 1);
    b.wipe();
    b.close();
    const c = store(file);
    expect(c.httpRecords.requestLog.insert(entry('/v4/four'))).toBe(last + 2);
  });
});
