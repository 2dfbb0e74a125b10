/**
 * API faults that drop or hold the connection, over a real socket: `reset`, `timeout` and
 * `reset-after` from the `X-Sandbox-Fault` header and an `api_fault` scenario step. A fault
 * before execution stores nothing (the retry with the same key executes); a fault after
 * execution stores the response and the retry replays it. The faults that answer are checked
 * through the app in api/core/http/api-faults.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../../support/servers.js';
import type { RunningServer } from '../../../../src/server.js';
import { directPayment, headers } from '../../../support/app.js';

type Json = Record<string, unknown>;
const { defer, serve: server } = perTest();

function scenarioFile(rules: unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'faults-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'faults.json');
  writeFileSync(path, JSON.stringify({ name: 'faults', rules }));
  return path;
}

const create = (s: RunningServer, extra: Record<string, string>, payload: Json = directPayment()) =>
  fetch(`${s.url}/v4/transactions`, { method: 'POST', headers: headers(undefined, extra), body: JSON.stringify(payload) });

const count = async (s: RunningServer): Promise<number> => {
  const res = await fetch(`${s.url}/v4/transactions?limit=100`, { headers: headers() });
  return ((await res.json()) as { items: unknown[] }).items.length;
};

describe('X-Sandbox-Fault before execution', () => {
  it('reset drops the connection; nothing is stored and the retry with the same key executes', async () => {
    const s = await server();
    await expect(create(s, { 'idempotency-key': 'k-reset', 'x-sandbox-fault': 'reset' })).rejects.toThrow();
    expect(await count(s)).toBe(0);
    const retry = await create(s, { 'idempotency-key': 'k-reset' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('timeout=1s never answers: the connection is dropped when the bound passes, nothing stored', async () => {
    const s = await server();
    await expect(create(s, { 'idempotency-key': 'k-timeout', 'x-sandbox-fault': 'timeout=1s' })).rejects.toThrow();
    expect(await count(s)).toBe(0);
    expect((await create(s, { 'idempotency-key': 'k-timeout' })).status).toBe(201);
  });

  it('timeout stops waiting when the client gives up', async () => {
    const s = await server();
    const gaveUp = fetch(`${s.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(undefined, { 'x-sandbox-fault': 'timeout' }),
      body: JSON.stringify(directPayment()),
      signal: AbortSignal.timeout(200),
    });
    await expect(gaveUp).rejects.toThrow();
    expect(await count(s)).toBe(0);
  });
});

describe('X-Sandbox-Fault after execution', () => {
  it('reset-after creates the record, drops the connection, and the retry replays it', async () => {
    const s = await server();
    await expect(create(s, { 'idempotency-key': 'k-reset-after', 'x-sandbox-fault': 'reset-after' })).rejects.toThrow();
    expect(await count(s)).toBe(1);
    const retry = await create(s, { 'idempotency-key': 'k-reset-after' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await count(s)).toBe(1);
  });
});

describe('api_fault scenario steps', () => {
  const rules = [{ name: 'lost answer', match: { metadata: { fault: 'after' } }, steps: [{ api_fault: 'reset-after' }] }];

  it('a matching create with an after-execution fault is stored and replayed on retry', async () => {
    const s = await server({ scenario: [scenarioFile(rules)] });
    const payload = directPayment({ metadata: { fault: 'after' } });
    await expect(create(s, { 'idempotency-key': 'rule-2' }, payload)).rejects.toThrow();
    expect(await count(s)).toBe(1);
    // The retry matches the rule again: the replay comes first (nothing runs twice), and the answer is lost again.
    await expect(create(s, { 'idempotency-key': 'rule-2' }, payload)).rejects.toThrow();
    expect(await count(s)).toBe(1);
  });
});
