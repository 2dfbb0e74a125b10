/**
 * API faults for merchants: the `X-Sandbox-Fault` header and `api_fault` scenario
 * steps, over a real socket. Idempotency rule 2/4 across faults: a fault before execution
 * stores nothing (the retry with the same key executes); a fault after execution stores the
 * response and the retry replays it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../support/servers.js';
import type { RunningServer } from '../../../src/server.js';
import { directPayment, headers, testApp } from '../../support/app.js';

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
  it('503 answers the envelope with Retry-After, stores nothing, and the retry with the same key executes', async () => {
    const s = await server();
    const failed = await create(s, { 'idempotency-key': 'k-503', 'x-sandbox-fault': '503' });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('1');
    const envelope = (await failed.json()) as Json;
    expect(envelope).toMatchObject({ type: 'error', code: 'service_unavailable', status: 503, details: [] });
    expect(await count(s)).toBe(0);

    const retry = await create(s, { 'idempotency-key': 'k-503' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await count(s)).toBe(1);
  });

  it('429=5 answers too_many_requests with Retry-After: 5', async () => {
    const s = await server();
    const res = await create(s, { 'x-sandbox-fault': '429=5' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ type: 'error', code: 'too_many_requests', status: 429 });
    expect(await count(s)).toBe(0);
  });

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

  it('latency=50 answers normally once the wait is over', async () => {
    const s = await server();
    const res = await create(s, { 'x-sandbox-fault': 'latency=50' });
    expect(res.status).toBe(201);
  });

  it('an unknown value is a 400 envelope naming the header', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(undefined, { 'x-sandbox-fault': 'explode' }),
      body: JSON.stringify(directPayment()),
    });
    expect(res.status).toBe(400);
    const envelope = (await res.json()) as { code: string; details: Json[] };
    expect(envelope.code).toBe('bad_request');
    expect(envelope.details[0]).toMatchObject({ pointer: '/x-sandbox-fault', location: 'header' });
  });

  it('works on reads too (GET /v4/transactions)', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', { headers: headers(undefined, { 'x-sandbox-fault': '503' }) });
    expect(res.status).toBe(503);
  });
});

describe('X-Sandbox-Fault after execution', () => {
  it('503-after creates the record, loses the answer, and the retry with the same key replays the stored 201', async () => {
    const s = await server();
    const lost = await create(s, { 'idempotency-key': 'k-after', 'x-sandbox-fault': '503-after' });
    expect(lost.status).toBe(503);
    expect(lost.headers.get('retry-after')).toBe('1');
    expect(await count(s)).toBe(1);

    const retry = await create(s, { 'idempotency-key': 'k-after' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const replayed = (await retry.json()) as Json;
    const listed = (await (await fetch(`${s.url}/v4/transactions`, { headers: headers() })).json()) as { items: Json[] };
    expect(listed.items.map((t) => t.id)).toEqual([replayed.id]);
  });

  it('reset-after creates the record, drops the connection, and the retry replays it', async () => {
    const s = await server();
    await expect(create(s, { 'idempotency-key': 'k-reset-after', 'x-sandbox-fault': 'reset-after' })).rejects.toThrow();
    expect(await count(s)).toBe(1);
    const retry = await create(s, { 'idempotency-key': 'k-reset-after' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await count(s)).toBe(1);
  });

  it('503-after is played whatever parameters the JSON content type carries (charset=utf-8): the body gate rewriting the request does not lose it', async () => {
    const s = await server();
    const lost = await create(s, {
      'idempotency-key': 'k-charset',
      'x-sandbox-fault': '503-after',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(lost.status).toBe(503);
    expect(await lost.json()).toMatchObject({ type: 'error', code: 'service_unavailable', status: 503 });
    expect(await count(s)).toBe(1);
    const retry = await create(s, { 'idempotency-key': 'k-charset', 'content-type': 'application/json; charset=utf-8' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('api_fault scenario steps', () => {
  const rules = [
    { name: 'unavailable', match: { metadata: { fault: 'before' } }, steps: [{ api_fault: '503' }] },
    { name: 'lost answer', match: { metadata: { fault: 'after' } }, steps: [{ api_fault: 'reset-after' }] },
  ];

  it('a matching create fails before execution and stores nothing; other creates are untouched', async () => {
    const s = await server({ scenario: [scenarioFile(rules)] });
    const res = await create(s, { 'idempotency-key': 'rule-1' }, directPayment({ metadata: { fault: 'before' } }));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ type: 'error', code: 'service_unavailable' });
    expect(await count(s)).toBe(0);
    // Other creates are untouched.
    expect((await create(s, {})).status).toBe(201);
  });

  it('a matching create with an after-execution fault is stored and replayed on retry', async () => {
    const s = await server({ scenario: [scenarioFile(rules)] });
    const payload = directPayment({ metadata: { fault: 'after' } });
    await expect(create(s, { 'idempotency-key': 'rule-2' }, payload)).rejects.toThrow();
    expect(await count(s)).toBe(1);
    // The retry matches the rule again: the replay comes first (nothing runs twice), and the answer is lost again.
    await expect(create(s, { 'idempotency-key': 'rule-2' }, payload)).rejects.toThrow();
    expect(await count(s)).toBe(1);
  });

  it('a bad api_fault value is refused when the file loads', () => {
    const path = scenarioFile([{ name: 'bad', match: {}, steps: [{ api_fault: 'explode' }] }]);
    expect(() => testApp({ scenario: [path] })).toThrow(/api_fault/);
  });
});

describe('OpenAPI', () => {
  it('documents the header on /v4 operations and the fault control routes with operationId and security: []', async () => {
    const { app } = testApp();
    const doc = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; operationId?: string; security?: unknown[] }>>;
    };
    const names = (path: string, method: string) => (doc.paths[path]?.[method]?.parameters ?? []).map((p) => p.name);
    expect(names('/transactions', 'post')).toContain('x-sandbox-fault');
    expect(names('/transactions/{transaction_id}', 'get')).toContain('x-sandbox-fault');
    expect(doc.paths['/_sandbox/transactions/{id}/webhook-faults']?.post).toMatchObject({
      operationId: 'injectWebhookFault',
      security: [],
    });
    expect(doc.paths['/_sandbox/check-webhooks']?.post).toMatchObject({ operationId: 'checkWebhooks', security: [] });
  });
});
