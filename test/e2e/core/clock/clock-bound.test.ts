/**
 * No clock passes 9999-12-31T23:59:59Z, over a real socket: with a `--db` file whose sandbox
 * clock sits 20 days before the bound, an advance of the sandbox clock or of an account's clock
 * that would pass it is 400 in the spec's envelope with a pointer, and moves nothing; a global
 * advance respects every account's own offset; the in-process `advanceClock` is refused alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, SandboxRequestError } from '../../../../src/index.js';
import { openStore } from '../../../../src/sqlite-store.js';
import { DIRECT } from '../../../support/app.js';
import { perTest } from '../../../support/servers.js';

const { defer, serve } = perTest();
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-clock-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
const DAY = 86_400;

/** A `--db` file whose sandbox clock shows `LATEST_MS - daysBefore` days now (its stored offset edited). */
function dbNearTheBound(name: string, daysBefore: number): string {
  const file = join(dir, name);
  openStore(file, () => undefined).close();
  const db = new Database(file);
  db.prepare("INSERT INTO meta (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
    String(LATEST_MS - daysBefore * DAY * 1000 - Date.now()),
  );
  db.close();
  return file;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('no clock passes 9999-12-31T23:59:59Z', () => {
  it('an advance past it, of the sandbox clock or of an account clock, is 400 with a pointer and moves nothing', async () => {
    const server = await serve({ db: dbNearTheBound('near.db', 20) });
    const call = async (method: string, path: string, payload?: unknown): Promise<Answer> => {
      const res = await fetch(`${server.url}/_sandbox${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const own = `/accounts/${DIRECT.account_id}/clock`;
    const offsets = async () => [(await call('GET', '/clock')).body.offset_seconds, (await call('GET', own)).body.offset_seconds];
    const refusedAt = (answer: Answer, pointer: string): void => {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'error', code: 'bad_request', status: 400 });
      expect(answer.body.message).toMatch(/9999-12-31T23:59:59Z/);
      expect(answer.body.message).toMatch(/Nothing moved/);
      expect((answer.body.details as { pointer: string }[])[0]!.pointer).toBe(pointer);
    };

    const before = await offsets();
    refusedAt(await call('POST', '/clock/advance', { seconds: 30 * DAY }), '/seconds');
    refusedAt(await call('POST', '/clock/advance', { months: 1 }), '/months');
    refusedAt(await call('POST', `${own}/advance`, { seconds: 21 * DAY }), '/seconds');
    expect(await offsets()).toEqual(before);

    // The account's clock moves 15 days ahead: a global advance now has 5 days left, not 20.
    expect((await call('POST', `${own}/advance`, { seconds: 15 * DAY })).status).toBe(200);
    refusedAt(await call('POST', '/clock/advance', { seconds: 10 * DAY }), '/seconds');
    expect((await call('POST', '/clock/advance', { seconds: 4 * DAY })).status).toBe(200);
    refusedAt(await call('POST', `${own}/advance`, { seconds: 2 * DAY }), '/seconds');
    // Up to the last second is allowed.
    const last = await call('POST', `${own}/advance`, { seconds: DAY - 60 });
    expect(last.status).toBe(200);
    expect(Date.parse(String(last.body.now))).toBeLessThanOrEqual(LATEST_MS);
    expect((await call('GET', '/health')).status).toBe(200);
  });

  it("the in-process advanceClock and an account's advanceClock are refused alike", async () => {
    const sandbox = await startSandbox({ db: dbNearTheBound('in-process.db', 1) });
    defer(() => sandbox.stop());
    const refusal = (await sandbox.advanceClock(2 * DAY).catch((err: unknown) => err)) as SandboxRequestError;
    expect(refusal).toBeInstanceOf(SandboxRequestError);
    expect(refusal.status).toBe(400);
    const accountRefusal = (await sandbox
      .account(DIRECT.account_id)
      .advanceClock(2 * DAY)
      .catch((err: unknown) => err)) as SandboxRequestError;
    expect(accountRefusal.status).toBe(400);
    expect((await sandbox.advanceClock(3600)).steps).toBeGreaterThanOrEqual(0);
  });
});
