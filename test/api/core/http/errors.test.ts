/** The error envelope from every route: 404, 405, bad bodies, 500 without a stack, no half-written rows. */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log.js';
import { body, directPayment, headers, testApp } from '../../../support/app.js';

const envelopeKeys = ['code', 'details', 'message', 'status', 'type'];

describe('error envelope', () => {
  /** What the app logged as errors (its logger is this file's). */
  const logged: string[] = [];
  const { app, features, db } = testApp({ bodyLimit: 4096 }, { logger: createLogger({ err: (line) => logged.push(line) }) });

  it('404 not_found for an unknown path, with or without credentials', async () => {
    for (const h of [{}, headers()]) {
      const res = await app.request('/v4/nothing-here', { headers: h });
      expect(res.status).toBe(404);
      const b = await body(res);
      expect(Object.keys(b).sort()).toEqual(envelopeKeys);
      expect(b).toMatchObject({ type: 'error', code: 'not_found', status: 404 });
    }
  });

  it('405 method_not_allowed with Allow for a known path', async () => {
    const res = await app.request('/v4/transactions', { method: 'DELETE', headers: headers() });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toMatch(/GET/);
    expect(res.headers.get('allow')).toMatch(/POST/);
    expect(await body(res)).toMatchObject({ type: 'error', code: 'method_not_allowed', status: 405 });
    const byId = await app.request('/v4/transactions/abc', { method: 'PUT', headers: headers() });
    expect(byId.status).toBe(405);
  });

  it('malformed JSON is 400 json_invalid', async () => {
    const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: '{"amount": 10,' });
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ code: 'bad_request', details: [{ type: 'json_invalid', location: 'body' }] });
  });

  it.each([['[1,2]'], ['"text"'], ['null'], ['42']])('a non-object body %s is 400', async (payload) => {
    const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: payload });
    expect(res.status).toBe(400);
    expect((await body(res)).message).toMatch(/JSON object/);
  });

  it('a wrong content type is 400 with a header detail', async () => {
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'text/plain' },
      body: JSON.stringify(directPayment()),
    });
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ details: [{ type: 'content_type_error', location: 'header' }] });
  });

  it('an oversized body is 413 request_too_large', async () => {
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ description: 'x'.repeat(5000) })),
    });
    expect(res.status).toBe(413);
    expect(await body(res)).toMatchObject({ type: 'error', code: 'request_too_large', status: 413 });
  });

  it('an unexpected exception is a 500 envelope with no stack trace, and is logged', async () => {
    const original = features.transactions.queries.page;
    logged.length = 0;
    features.transactions.queries.page = () => {
      throw new Error('disk on fire at /secret/path.ts:12');
    };
    try {
      const res = await app.request('/v4/transactions', { headers: headers() });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).not.toMatch(/disk on fire|secret|\.ts:|at /);
      expect(JSON.parse(text)).toMatchObject({ type: 'error', code: 'server_error', status: 500 });
      expect(logged).toHaveLength(1);
    } finally {
      features.transactions.queries.page = original;
    }
  });

  it('nothing half-written stays after a failure inside a create', async () => {
    const before = (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
    // The scenario policy is asked after the insert, inside the create's unit of work.
    const decide = features.scenarios.policy.forTransaction;
    features.scenarios.policy.forTransaction = () => {
      throw new Error('boom after insert');
    };
    try {
      const res = await app.request('/v4/transactions', {
        method: 'POST',
        headers: { ...headers(), 'idempotency-key': 'half' },
        body: JSON.stringify(directPayment()),
      });
      expect(res.status).toBe(500);
    } finally {
      features.scenarios.policy.forTransaction = decide;
    }
    expect((db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n).toBe(before);
    // The key was released: the retry runs.
    const retry = await app.request('/v4/transactions', {
      method: 'POST',
      headers: { ...headers(), 'idempotency-key': 'half' },
      body: JSON.stringify(directPayment()),
    });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('control API errors use the same envelope', async () => {
    const res = await app.request('/_sandbox/transactions/nope/settle', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await body(res)).toMatchObject({ type: 'error', code: 'not_found' });
    const bad = await app.request('/_sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: -5 }),
    });
    expect(bad.status).toBe(400);
    expect(await body(bad)).toMatchObject({ details: [{ pointer: '/seconds', location: 'body' }] });
  });
});

describe('the request log', () => {
  it('keeps requests no account could be found for, such as a 401, in the full listing', async () => {
    const { app } = testApp();
    await app.request('/v4/transactions', {
      headers: { authorization: 'Bearer sk_test_wrong', 'x-merchant-account-id': 'acc_demo_direct' },
    });
    await app.request('/v4/transactions', { headers: headers() });
    const all = await body<{ items: { status: number; path: string; response_body: string | null }[] }>(
      await app.request('/_sandbox/requests'),
    );
    expect(all.items.map((r) => r.status)).toEqual([200, 401]);
    expect(all.items[1]!.response_body).toMatch(/unknown API key/);
  });
});
