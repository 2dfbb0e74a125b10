/**
 * API faults for merchants through the app: the `X-Sandbox-Fault` header and `api_fault`
 * scenario steps that answer (the ones that drop the connection need a socket:
 * e2e/core/http/fault-header-and-fault-steps).
 * Idempotency rule 2/4 across faults: a fault before execution stores nothing (the retry with
 * the same key executes); a fault after execution stores the response and the retry replays it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directPayment, headers, testApp } from '../../../support/app.js';

type Json = Record<string, unknown>;
type App = ReturnType<typeof testApp>['app'];

const dir = mkdtempSync(join(tmpdir(), 'faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function scenarioFile(rules: unknown[]): string {
  const path = join(dir, `faults-${++files}.json`);
  writeFileSync(path, JSON.stringify({ name: 'faults', rules }));
  return path;
}

const create = (app: App, extra: Record<string, string>, payload: Json = directPayment()) =>
  app.request('/v4/transactions', { method: 'POST', headers: headers(undefined, extra), body: JSON.stringify(payload) });

const count = async (app: App): Promise<number> => {
  const res = await app.request('/v4/transactions?limit=100', { headers: headers() });
  return ((await res.json()) as { items: unknown[] }).items.length;
};

describe('X-Sandbox-Fault before execution', () => {
  it('503 answers the envelope with Retry-After, stores nothing, and the retry with the same key executes', async () => {
    const { app } = testApp();
    const failed = await create(app, { 'idempotency-key': 'k-503', 'x-sandbox-fault': '503' });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('1');
    const envelope = (await failed.json()) as Json;
    expect(envelope).toMatchObject({ type: 'error', code: 'service_unavailable', status: 503, details: [] });
    expect(await count(app)).toBe(0);

    const retry = await create(app, { 'idempotency-key': 'k-503' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await count(app)).toBe(1);
  });

  it('429=5 answers too_many_requests with Retry-After: 5', async () => {
    const { app } = testApp();
    const res = await create(app, { 'x-sandbox-fault': '429=5' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ type: 'error', code: 'too_many_requests', status: 429 });
    expect(await count(app)).toBe(0);
  });

  it('latency=50 answers normally once the wait is over', async () => {
    const { app } = testApp();
    const res = await create(app, { 'x-sandbox-fault': 'latency=50' });
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
    const { app } = testApp();
    const lost = await create(app, { 'idempotency-key': 'k-after', 'x-sandbox-fault': '503-after' });
    expect(lost.status).toBe(503);
    expect(lost.headers.get('retry-after')).toBe('1');
    expect(await count(app)).toBe(1);

    const retry = await create(app, { 'idempotency-key': 'k-after' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const replayed = (await retry.json()) as Json;
    const listed = (await (await app.request('/v4/transactions', { headers: headers() })).json()) as { items: Json[] };
    expect(listed.items.map((t) => t.id)).toEqual([replayed.id]);
  });

  it('503-after is played whatever parameters the JSON content type carries (charset=utf-8): the body gate rewriting the request does not lose it', async () => {
    const { app } = testApp();
    const lost = await create(app, {
      'idempotency-key': 'k-charset',
      'x-sandbox-fault': '503-after',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(lost.status).toBe(503);
    expect(await lost.json()).toMatchObject({ type: 'error', code: 'service_unavailable', status: 503 });
    expect(await count(app)).toBe(1);
    const retry = await create(app, { 'idempotency-key': 'k-charset', 'content-type': 'application/json; charset=utf-8' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('api_fault scenario steps', () => {
  const rules = [{ name: 'unavailable', match: { metadata: { fault: 'before' } }, steps: [{ api_fault: '503' }] }];

  it('a matching create fails before execution and stores nothing; other creates are untouched', async () => {
    const { app } = testApp({ scenario: [scenarioFile(rules)] });
    const res = await create(app, { 'idempotency-key': 'rule-1' }, directPayment({ metadata: { fault: 'before' } }));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ type: 'error', code: 'service_unavailable' });
    expect(await count(app)).toBe(0);
    // Other creates are untouched.
    expect((await create(app, {})).status).toBe(201);
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
