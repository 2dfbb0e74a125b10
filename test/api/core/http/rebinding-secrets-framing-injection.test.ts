/**
 * The attacks of a security probe on loopback, one test each, through `app.request`: what a
 * hostile page, a forged request or a careless log could do, and that it does not. The same
 * attacks over a real socket are in `test/e2e/core/http/rebinding-secrets-and-delivery-log.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log.js';
import { refusedTarget, type TargetPolicy } from '../../../../src/core/webhooks/targets.js';
import { CHECKOUT, DIRECT, directPayment, headers, jwt, testApp } from '../../../support/app.js';

type Json = Record<string, unknown>;
const json = async (res: Response): Promise<Json> => (await res.json()) as Json;

/** A rebound attacker's name: it resolves to 127.0.0.1, so the browser sends it as the Host. */
const REBOUND = 'rebind.attacker.example';

describe('DNS rebinding against /v4 with the published demo keys', () => {
  it('a page on a rebound name (Origin, Sec-Fetch-Site, -Dest or -User) cannot create a payment whose webhook the sandbox would POST', async () => {
    const { app } = testApp();
    const payment = JSON.stringify(directPayment({ notification_url: 'http://127.0.0.1:9/relay' }));
    const browser: Record<string, string>[] = [
      { origin: `http://${REBOUND}:4010` },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' },
      { 'sec-fetch-user': '?1' },
    ];
    for (const extra of browser) {
      const res = await app.request(`http://${REBOUND}:4010/v4/transactions`, {
        method: 'POST',
        headers: headers(DIRECT, { host: `${REBOUND}:4010`, ...extra }),
        body: payment,
      });
      expect(res.status, JSON.stringify(extra)).toBe(403);
      const refused = await json(res);
      expect(refused).toMatchObject({ type: 'error', code: 'host_not_allowed' });
      expect((refused.details as { pointer: string; location: string }[])[0]).toMatchObject({ pointer: '/host', location: 'header' });
    }
    const list = await app.request('/v4/transactions', { headers: headers() });
    expect((await json(list)).items).toEqual([]);
  });

  it('a page on a rebound name cannot read the demo records through /v4 either', async () => {
    const { app } = testApp();
    expect(
      (await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) })).status,
    ).toBe(201);
    const res = await app.request(`http://${REBOUND}/v4/transactions`, {
      headers: headers(DIRECT, { host: REBOUND, 'sec-fetch-site': 'same-origin' }),
    });
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('order-1001');
    const buyers = await app.request(`http://${REBOUND}/buyers`, {
      headers: headers(DIRECT, { host: REBOUND, origin: `http://${REBOUND}` }),
    });
    expect(buyers.status).toBe(403);
  });

  it("a rebound page's plain GET (no Origin, no Sec-Fetch-*) cannot read /v4 either; nor can any caller under a Host not served", async () => {
    const { app } = testApp();
    const variants: Record<string, string>[] = [{}, { 'sec-fetch-mode': 'cors', 'user-agent': 'node' }];
    for (const extra of variants) {
      const res = await app.request(`http://${REBOUND}:4010/v4/transactions`, {
        headers: headers(DIRECT, { host: `${REBOUND}:4010`, ...extra }),
      });
      expect(res.status, JSON.stringify(extra)).toBe(403);
      expect(await json(res)).toMatchObject({
        type: 'error',
        code: 'host_not_allowed',
        details: [{ pointer: '/host', location: 'header' }],
      });
    }
  });

  it("--allowed-hosts lets a container calling by service name in, and browsers on that name; '*' lets any Host in", async () => {
    const served = testApp({ allowedHosts: ['payment-sandbox'] }).app;
    const res = await served.request('http://payment-sandbox:4010/v4/transactions', {
      method: 'POST',
      headers: headers(DIRECT, { host: 'payment-sandbox:4010' }),
      body: JSON.stringify(directPayment()),
    });
    expect(res.status).toBe(201);
    // Node's fetch sends Sec-Fetch-Mode: cors and no other browser header
    const nodeFetch = await served.request('http://payment-sandbox:4010/v4/transactions', {
      headers: headers(DIRECT, { host: 'payment-sandbox:4010', 'sec-fetch-mode': 'cors', 'user-agent': 'node' }),
    });
    expect(nodeFetch.status).toBe(200);
    const local = await testApp().app.request('http://127.0.0.1:4010/v4/transactions', {
      headers: headers(DIRECT, { host: '127.0.0.1:4010', origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-origin' }),
    });
    expect(local.status).toBe(200);
    const allowed = testApp({ allowedHosts: ['shop.test'] }).app;
    const browser = await allowed.request('http://shop.test/v4/transactions', {
      headers: headers(DIRECT, { host: 'shop.test', origin: 'http://shop.test' }),
    });
    expect(browser.status).toBe(200);
    const any = testApp({ allowedHosts: ['*'] }).app;
    const anyHost = await any.request(`http://${REBOUND}/v4/transactions`, { headers: headers(DIRECT, { host: REBOUND }) });
    expect(anyHost.status).toBe(200);
  });
});

/** Every form a credential takes: the demo keys, a restricted key, production keys, a JWT, a bearer header. */
function keyForms(restricted: string): string[] {
  return [
    DIRECT.api_key,
    CHECKOUT.api_key,
    restricted,
    `sk_test_${'a1'.repeat(16)}`,
    `sk_live_${'b2'.repeat(16)}`,
    `sk_live_rk_${'c3'.repeat(20)}`,
    jwt({ scopes: ['*.read'], iat: 1, exp: 4_000_000_000 }),
  ];
}

describe('secrets in the request log', () => {
  it('every key form in a query string, a header and a body is redacted whole (never "[redacted]_<rest of the key>")', async () => {
    const { app } = testApp();
    const minted = await json(
      await app.request(`/_sandbox/accounts/${DIRECT.account_id}/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: ['transactions.read'] }),
      }),
    );
    const restricted = minted.secret as string;
    expect(restricted).toMatch(/^sk_test_rk_/);
    const forms = keyForms(restricted);
    for (const [i, key] of forms.entries()) {
      await app.request(`/v4/transactions?cursor=${encodeURIComponent(key)}&limit=5`, { headers: headers() });
      await app.request(`/v4/transactions?note=Bearer%20${encodeURIComponent(key)}`, { headers: headers() });
      await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': key }),
        body: JSON.stringify(directPayment({ amount: 'bad', description: `key ${key}`, external_identifier: `k-${i}` })),
      });
      await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(DIRECT, { 'x-merchant-account-id': key }),
        body: `{"not json ${key}`,
      });
      await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ api_token: key, external_identifier: `u-${i}` })),
      });
    }
    const logged = await app.request('/_sandbox/requests?limit=100');
    expect(logged.status).toBe(200);
    const text = await logged.text();
    expect(text).toContain('[redacted]');
    for (const key of forms) {
      expect(text).not.toContain(key);
      // no tail of the key survives either (the old pattern stopped at the first underscore)
      expect(text).not.toContain(key.slice(-24));
    }
  });
});

describe('secrets in the process log', () => {
  it('every key form in a logged request path (--log), a field and an error is redacted whole', () => {
    const lines: string[] = [];
    const logger = createLogger({ format: 'json', out: (l) => lines.push(l), err: (l) => lines.push(l) });
    const forms = keyForms(`sk_test_rk_${'9e'.repeat(20)}`);
    for (const key of forms) {
      logger.info('request', `GET /v4/transactions?cursor=${key} 200`, {
        path: `/v4/transactions?cursor=${key}`,
        header: `Authorization: Bearer ${key}`,
      });
      logger.error('x', `failed with ${key}`, { err: new Error(`bad key ${key}`) });
    }
    const text = lines.join('\n');
    expect(text).toContain('[redacted');
    for (const key of forms) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(-24));
    }
  });
});

describe('framing the payment page (clickjacking)', () => {
  it('every payment-page answer forbids framing: pages, the not-found page, a POST answer and a redirect', async () => {
    const { app } = testApp();
    const tx = await json(
      await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(CHECKOUT),
        body: JSON.stringify({ amount: 500, currency: 'USD', return_url: 'https://m.example/r' }),
      }),
    );
    const id = tx.id as string;
    const answers = [
      await app.request(`/pay/${id}`),
      await app.request('/pay/no-such-payment'),
      await app.request(`/pay/${id}/app`),
      await app.request(`/pay/${id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'number=1&expiry=&security_code=&holder_name=',
      }),
      await app.request(`/pay/${id}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 303, 400, 303]);
    for (const res of answers) {
      expect(res.headers.get('content-security-policy'), res.url).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), res.url).toBe('DENY');
    }
    // the page's own policy is kept: still no script
    expect(answers[0]!.headers.get('content-security-policy')).toContain("default-src 'none'");
    const panel = await app.request('/');
    expect(panel.headers.get('x-frame-options')).toBe('DENY');
    expect(panel.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('attacks that are held and must stay held', () => {
  it('script injection in every merchant field the payment page renders is escaped', async () => {
    const { app } = testApp();
    const payload = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const created = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(CHECKOUT),
      body: JSON.stringify({
        amount: 500,
        currency: 'USD',
        description: payload,
        external_identifier: payload,
        customer: { name: payload, email: 'jane@example.com' },
        return_url: `https://m.example/r?x=${payload}`,
        cancel_url: `https://m.example/c?x=${payload}`,
        metadata: { note: payload },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = (await json(created)).id as string;
    const pages = [
      await app.request(`/pay/${id}`),
      await app.request(`/pay/${encodeURIComponent(payload)}`),
      await app.request(`/pay/${id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ number: payload, expiry: payload, security_code: '', holder_name: payload }).toString(),
      }),
    ];
    for (const page of pages) {
      const text = await page.text();
      expect(text).not.toContain('<script>');
      expect(text).not.toMatch(/<img src=x/i);
      expect(text).not.toContain('"><script');
    }
  });

  it('admin-token path tricks (dot segments, encoded slashes, case, trailing slashes) do not bypass the token', async () => {
    const { app } = testApp({ adminToken: 'correct-horse-battery' });
    const tx = await json(
      await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) }),
    );
    const tricks = [
      '/_sandbox/../_sandbox/reset',
      '/_sandbox/health/../reset',
      '/_sandbox/./reset',
      '/_sandbox%2Freset',
      '/_sandbox%2freset',
      '/_sandbox/%2E%2E/_sandbox/reset',
      '/_SANDBOX/reset',
      '/_Sandbox/Reset',
      '//_sandbox/reset',
      '/_sandbox//reset',
      '/_sandbox/reset/',
      '/_sandbox/health%2F..%2Freset',
      '/x/..%2F_sandbox/reset',
    ];
    for (const path of tricks) {
      const res = await app.request(`http://127.0.0.1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect([401, 404], `${path}: ${res.status}`).toContain(res.status);
      expect(res.status, path).not.toBe(500);
    }
    const kept = await app.request(`/v4/transactions/${tx.id as string}`, { headers: headers() });
    expect(kept.status).toBe(200);
  });

  it('encoded SSRF targets (decimal, octal, hex, IPv6-mapped, "localhost." with a trailing dot) are refused when they name the sandbox or a metadata address', () => {
    const policy: TargetPolicy = { allowHosts: [], own: () => ({ port: 4010, hosts: new Set(['localhost', '127.0.0.1', '::1']) }) };
    for (const url of [
      'http://2130706433:4010/_sandbox/reset',
      'http://0177.0.0.1:4010/_sandbox/reset',
      'http://0x7f000001:4010/_sandbox/reset',
      'http://[::ffff:127.0.0.1]:4010/_sandbox/reset',
      'http://localhost.:4010/_sandbox/reset',
      'http://LOCALHOST.:4010/_sandbox/reset',
      'http://app.localhost.:4010/_sandbox/reset',
    ]) {
      expect(refusedTarget(url, policy), url).toBe('the sandbox does not send webhooks to itself');
    }
    for (const url of [
      'http://2852039166/latest',
      'http://0251.0376.0251.0376/',
      'http://0xa9fea9fe/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
    ]) {
      expect(refusedTarget(url, policy), url).toMatch(/link-local|metadata/);
    }
  });
});
