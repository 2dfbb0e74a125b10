/**
 *, "safe to share", in-process (`app.request`): the findings of the black-box
 * probe that need no socket. Each test failed on the main branch before this change.
 */
import { describe, expect, it } from 'vitest';
import { testApp, headers, directPayment, DIRECT } from '../../../support/app.js';

type Json = Record<string, unknown>;
const json = async (res: Response): Promise<Json> => (await res.json()) as Json;

describe('odd bodies and media types get the error envelope, never a 500', () => {
  it('an unknown field in a /_sandbox body is ignored, never a 500 (also own-property names such as constructor)', async () => {
    const { app } = testApp();
    for (const body of [
      '{"seconds":60,"note":"x"}',
      '{"seconds":60,"constructor":{"a":1},"toString":"x"}',
      '{"seconds":60,"__proto__":{"note":1}}',
    ]) {
      const res = await app.request('/_sandbox/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(200);
    }
  });

  it('Content-Type "application/json;" is JSON (not a 415 bad_request without details)', async () => {
    const { app } = testApp();
    const res = await app.request('/_sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json;' },
      body: '{"seconds":60}',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const tx = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(DIRECT, { 'content-type': 'application/json;' }),
      body: JSON.stringify(directPayment()),
    });
    expect(tx.status).toBe(201);
  });

  it('deep nesting with an Idempotency-Key is a 400 pointing at the first value too deep, not a stack overflow', async () => {
    const { app } = testApp();
    const depth = 20_000;
    const deep = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(DIRECT, { 'idempotency-key': 'deep-1' }),
      body: `{"amount":100,"currency":"USD","metadata":${deep}}`,
    });
    const body = await json(res);
    expect(res.status).toBe(400);
    const details = body.details as { pointer: string; location: string }[];
    expect(details[0]!.location).toBe('body');
    expect(details[0]!.pointer).toBe('/metadata' + '/a'.repeat(63));
    // 64 levels are fine (the limit is on the 65th)
    const ok = await app.request('/_sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"seconds":1,"x":${'['.repeat(63)}${']'.repeat(63)}}`,
    });
    expect(ok.status).toBe(200);
  });

  it('a 415 from a route media-type check is the envelope with code unsupported_media_type and a pointer', async () => {
    const { app } = testApp();
    const res = await app.request('/_sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset' },
      body: '{"seconds":60}',
    });
    if (res.status === 415) {
      const body = await json(res);
      expect(body.code).toBe('unsupported_media_type');
      expect((body.details as { pointer: string }[])[0]!.pointer).toBe('/content-type');
    } else expect(res.status).toBe(200);
  });
});

describe('same-origin browser requests only (control API and panel)', () => {
  it('refuses a cross-origin no-cors-style POST (text/plain, Origin evil) before it settles anything', async () => {
    const { app } = testApp();
    const created = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
    const id = (await json(created)).id as string;
    const res = await app.request(`/_sandbox/transactions/${id}/settle`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
      body: '',
    });
    expect(res.status).toBe(403);
    expect((await json(res)).code).toBe('cross_origin_request');
    // no Sec-Fetch-Site (older browser): the Origin alone is enough
    const bare = await app.request(`/_sandbox/transactions/${id}/settle`, { method: 'POST', headers: { origin: 'http://evil.example' } });
    expect(bare.status).toBe(403);
    const tx = await json(await app.request(`/_sandbox/transactions/${id}`));
    expect((tx.transaction as Json | undefined)?.status ?? tx.status).toBe('PENDING');
  });

  it('a same-origin browser POST needs JSON or X-Sandbox-Request; scripts without browser headers are unchanged', async () => {
    const { app } = testApp();
    const sameOrigin = { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' };
    expect(
      (await app.request('/_sandbox/reset', { method: 'POST', headers: { ...sameOrigin, 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    expect(
      (await app.request('/_sandbox/reset', { method: 'POST', headers: { ...sameOrigin, 'x-sandbox-request': 'panel' } })).status,
    ).toBe(200);
    expect(
      (await app.request('/_sandbox/reset', { method: 'POST', headers: { ...sameOrigin, 'content-type': 'application/json' }, body: '{}' }))
        .status,
    ).toBe(200);
    expect((await app.request('/_sandbox/reset', { method: 'POST' })).status).toBe(200);
  });

  it('refuses a DNS-rebinding Host (reading credentials) outside /v4; --allowed-hosts adds names', async () => {
    const { app } = testApp();
    const res = await app.request('http://attacker.example/_sandbox/credentials', { headers: { host: 'attacker.example' } });
    expect(res.status).toBe(403);
    const body = await res.text();
    expect(body).toContain('host_not_allowed');
    expect(body).not.toContain('sk_test_');
    expect((await app.request('http://127.0.0.1:4010/_sandbox/credentials', { headers: { host: '127.0.0.1:4010' } })).status).toBe(200);
    const allowed = testApp({ allowedHosts: ['sandbox'] }).app;
    expect((await allowed.request('http://sandbox:4010/_sandbox/credentials', { headers: { host: 'sandbox:4010' } })).status).toBe(200);
  });

  it('the panel may not be framed; JSON answers send nosniff', async () => {
    const { app } = testApp();
    const panel = await app.request('/');
    expect(panel.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const health = await app.request('/_sandbox/health');
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    const v4 = await app.request('/v4/transactions', { headers: headers() });
    expect(v4.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('--admin-token', () => {
  it('protects /_sandbox and the credentials; health and the webhook public key stay open; /v4 keeps its own auth', async () => {
    const { app } = testApp({ adminToken: 'correct-horse-battery' });
    const none = await app.request('/_sandbox/credentials');
    expect(none.status).toBe(401);
    expect((await json(none)).code).toBe('admin_token_required');
    expect((await app.request('/_sandbox/credentials', { headers: { authorization: 'Bearer wrong-token-xx' } })).status).toBe(401);
    expect((await app.request('/_sandbox/reset', { method: 'POST' })).status).toBe(401);
    expect((await app.request('/_sandbox/credentials', { headers: { authorization: 'Bearer correct-horse-battery' } })).status).toBe(200);
    expect((await app.request('/_sandbox/credentials', { headers: { 'x-sandbox-admin-token': 'correct-horse-battery' } })).status).toBe(
      200,
    );
    expect((await app.request('/_sandbox/health')).status).toBe(200);
    expect((await app.request('/_sandbox/webhook-public-key')).status).toBe(200);
    expect((await app.request('/v4/transactions', { headers: headers() })).status).toBe(200);
    // the panel's files hold no secret: its sign-in screen is served
    const script = await app.request('/panel/sign-in.js');
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('sessionStorage');
  });

  it('PAYMENT_SANDBOX_ADMIN_TOKEN is an option variable, and its value is never echoed', async () => {
    const { parseCli } = await import('../../../../src/cli.js');
    expect(parseCli([], { PAYMENT_SANDBOX_ADMIN_TOKEN: 'from-the-env-123' }).adminToken).toBe('from-the-env-123');
    expect(() => parseCli([], { PAYMENT_SANDBOX_ADMIN_TOKEN: 'short' })).toThrow(/value hidden/);
  });

  it('an empty PAYMENT_SANDBOX_ADMIN_TOKEN is refused like a short one, never read as no token', async () => {
    const { parseCli } = await import('../../../../src/cli.js');
    expect(() => parseCli([], { PAYMENT_SANDBOX_ADMIN_TOKEN: '' })).toThrow(/PAYMENT_SANDBOX_ADMIN_TOKEN.*must be at least 8 characters/);
    expect(() => parseCli(['--admin-token', ''], {})).toThrow(/--admin-token.*must be at least 8 characters/);
  });
});

describe('limits and retention', () => {
  it('a per-instance account limit (--max-accounts, demo accounts included)', async () => {
    const { app } = testApp({ maxAccounts: 3 });
    const create = () =>
      app.request('/_sandbox/accounts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"mode":"direct"}' });
    expect((await create()).status).toBe(201);
    const refused = await create();
    expect(refused.status).toBe(409);
    expect((await json(refused)).code).toBe('limit_reached');
  });

  it('the request log keeps only the newest --request-log-limit entries', async () => {
    const { app, httpRecords } = testApp({ requestLogLimit: 3 });
    for (let i = 0; i < 6; i++) await app.request(`/v4/transactions?n=${i}`, { headers: headers() });
    const rows = httpRecords.requestLog.pageAll({ limit: 50 }).rows;
    expect(rows.map((e) => e.path).sort()).toEqual(['/v4/transactions?n=3', '/v4/transactions?n=4', '/v4/transactions?n=5']);
  });
});

describe('secrets', () => {
  it('API keys and JWTs in query strings never reach the request log', async () => {
    const { app, httpRecords } = testApp();
    await app.request(`/v4/transactions?api_key=${DIRECT.api_key}&q=${DIRECT.api_key}&token=abc`, { headers: headers() });
    const logged = JSON.stringify(httpRecords.requestLog.pageAll({ limit: 50 }));
    expect(logged).not.toContain(DIRECT.api_key);
    expect(logged).not.toContain('token=abc');
    expect(logged).toContain('[redacted]');
  });
});

describe('webhook targets, when accepted', () => {
  it('refuses link-local, metadata and non-http notification_url values with a pointer; accepts a loopback receiver', async () => {
    const { app } = testApp();
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/hook', 'http://0.0.0.0:9/hook']) {
      const res = await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ notification_url: url })),
      });
      const body = await json(res);
      expect(res.status, url).toBe(400);
      expect((body.details as { pointer: string }[]).map((d) => d.pointer)).toContain('/notification_url');
    }
    const ok = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ notification_url: 'http://127.0.0.1:9/hook' })),
    });
    expect(ok.status).toBe(201);
  });

  it('--webhook-allow-hosts restricts targets to a list', async () => {
    const { app } = testApp({ webhookAllowHosts: ['hooks.internal'] });
    const refused = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ notification_url: 'http://127.0.0.1:9/hook' })),
    });
    expect(refused.status).toBe(400);
    const ok = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ notification_url: 'https://hooks.internal/pay' })),
    });
    expect(ok.status).toBe(201);
  });
});
