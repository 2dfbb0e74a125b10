/**
 * The attacks of a security probe on loopback, over real sockets: DNS rebinding used as a
 * POST relay, secrets reaching the request log and the --db file, and a merchant's large
 * error pages growing the delivery log. The in-process attacks are in
 * `test/api/core/http/rebinding-secrets-framing-injection.test.ts`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../../support/servers.js';
import { CHECKOUT, DIRECT, directPayment, headers, jwt, startReceiver } from '../../../support/app.js';

type Json = Record<string, unknown>;
const { defer, serve } = perTest();

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-attacks-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'sandbox.db');
}

const until = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** A request with a Host header of our choosing (fetch does not let a script set it). */
function rawRequest(url: string, method: string, hdrs: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: hdrs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('DNS rebinding turns the sandbox into a POST relay', () => {
  it('a rebound page cannot create a payment with the demo key, nor read with a plain GET, so the sandbox POSTs nothing to a loopback URL; a container calling by a listed service name still can', async () => {
    const victim = await startReceiver();
    defer(() => victim.close());
    const server = await serve();
    const rebound = `rebind.attacker.example:${server.port}`;
    const payment = JSON.stringify(directPayment({ notification_url: victim.url }));
    const attack = await rawRequest(
      `${server.url}/v4/transactions`,
      'POST',
      headers(DIRECT, { host: rebound, origin: `http://${rebound}`, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }),
      payment,
    );
    expect(attack.status).toBe(403);
    expect(JSON.parse(attack.body)).toMatchObject({
      type: 'error',
      code: 'host_not_allowed',
      details: [{ pointer: '/host', location: 'header' }],
    });
    const read = await rawRequest(
      `${server.url}/v4/transactions`,
      'GET',
      headers(DIRECT, { host: rebound, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }),
    );
    expect(read.status).toBe(403);
    // a rebound page's plain GET sends no Origin and, in older browsers, no Sec-Fetch-*
    const plainRead = await rawRequest(`${server.url}/v4/transactions`, 'GET', headers(DIRECT, { host: rebound }));
    expect(plainRead.status).toBe(403);
    expect(JSON.parse(plainRead.body)).toMatchObject({ type: 'error', code: 'host_not_allowed' });
    expect(server.core.queries.deliveries.pageAll({ limit: 10 }).rows).toHaveLength(0);

    // a container calls by its service name, listed in --allowed-hosts (with the headers Node's fetch sends)
    const named = await serve({ allowedHosts: ['payment-sandbox'] });
    const container = await rawRequest(
      `${named.url}/v4/transactions`,
      'POST',
      headers(DIRECT, { host: `payment-sandbox:${named.port}`, 'sec-fetch-mode': 'cors', 'user-agent': 'node' }),
      JSON.stringify(directPayment()),
    );
    expect(container.status).toBe(201);
    expect(victim.received).toHaveLength(0);
  });
});

describe('secrets survive redaction', () => {
  it('no key form in a query string, a header or a body reaches GET /_sandbox/requests, the request log or idempotency tables, or the --db file', async () => {
    const db = tempDb();
    const server = await serve({ db });
    const minted = (await (
      await fetch(`${server.url}/_sandbox/accounts/${DIRECT.account_id}/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: ['transactions.read'] }),
      })
    ).json()) as Json;
    const restricted = minted.secret as string;
    const foreign = [
      restricted,
      `sk_test_${'d4'.repeat(16)}`,
      `sk_live_${'e5'.repeat(16)}`,
      `sk_test_rk_${'f6'.repeat(20)}`,
      `sk_live_rk_${'a7'.repeat(20)}`,
      jwt({ scopes: ['*.read'], iat: 1, exp: 4_000_000_000 }),
    ];
    const all = [DIRECT.api_key, CHECKOUT.api_key, ...foreign];
    for (const [i, key] of all.entries()) {
      await fetch(`${server.url}/v4/transactions?cursor=${encodeURIComponent(key)}`, { headers: headers() });
      await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': key }),
        body: JSON.stringify(directPayment({ amount: 'bad', description: key, external_identifier: `s-${i}` })),
      });
      await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': `ok-${i}`, 'x-merchant-account-id': key }),
        body: `{"broken": "${key}"`,
      });
      await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': `${key}-2` }),
        body: JSON.stringify(directPayment({ api_token: key, external_identifier: `t-${i}` })),
      });
    }
    const log = await (await fetch(`${server.url}/_sandbox/requests?limit=100`)).text();
    for (const key of all) expect(log).not.toContain(key);
    const tables = (): string => {
      const copy = new Database(db, { readonly: true, fileMustExist: true });
      try {
        return JSON.stringify([copy.prepare('SELECT * FROM request_log').all(), copy.prepare('SELECT * FROM idempotency_keys').all()]);
      } finally {
        copy.close();
      }
    };
    const bytes = (): string =>
      [db, `${db}-wal`]
        .filter((f) => existsSync(f))
        .map((f) => readFileSync(f).toString('latin1'))
        .join('\n');
    for (const key of all) expect(tables()).not.toContain(key);
    for (const key of foreign) expect(bytes()).not.toContain(key);
    await server.stop();
    for (const key of foreign) expect(bytes()).not.toContain(key);
  });
});

describe('the delivery log grows about 1 MB per failed delivery', () => {
  it(
    'a handler answering a 100 KB error page: each attempt keeps 4 KiB, the list carries no bodies, one delivery has them',
    { timeout: 90_000 },
    async () => {
      const receiver = await startReceiver();
      defer(() => receiver.close());
      const page = `<html><body>${'<p>an error page from the merchant</p>'.repeat(2800)}TAIL</body></html>`;
      expect(page.length).toBeGreaterThan(100_000);
      receiver.respond = () => ({ status: 500, body: page });
      const db = tempDb();
      const server = await serve({ db, notificationUrl: receiver.url });
      const size = (): number => [db, `${db}-wal`].filter((f) => existsSync(f)).reduce((n, f) => n + statSync(f).size, 0);
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const created = await fetch(`${server.url}/v4/transactions`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify(directPayment({ external_identifier: `big-${i}` })),
        });
        ids.push(((await created.json()) as Json).id as string);
      }
      server.db.pragma('wal_checkpoint(TRUNCATE)');
      const before = size();
      for (const id of ids) await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
      await until(
        () => server.core.queries.deliveries.pageAll({ limit: 100 }).rows.filter((d) => d.attempts > 0).length === 20,
        'the first attempts',
      );
      for (const seconds of [10, 20, 40]) {
        const advanced = await fetch(`${server.url}/_sandbox/clock/advance`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ seconds }),
        });
        expect(advanced.status).toBe(200);
      }
      await until(() => server.core.queries.deliveries.pageAll({ limit: 100 }).rows.every((d) => d.attempts >= 4), 'four attempts each');
      expect(receiver.received.length).toBeGreaterThanOrEqual(80);

      const list = await fetch(`${server.url}/_sandbox/deliveries?limit=100`);
      const listText = await list.text();
      expect(list.status).toBe(200);
      expect(listText.length).toBeLessThan(20 * 8 * 1024);
      expect(listText).not.toContain('an error page from the merchant');
      const items = (JSON.parse(listText) as { items: { id: string; attempts: Json[] }[] }).items;
      expect(items).toHaveLength(20);
      expect(items[0]!.attempts.length).toBeGreaterThanOrEqual(4);
      for (const attempt of items[0]!.attempts) {
        expect(attempt).not.toHaveProperty('response_body');
        expect(attempt).not.toHaveProperty('request_body');
      }

      const one = await fetch(`${server.url}/_sandbox/deliveries/${items[0]!.id}`);
      const oneText = await one.text();
      expect(one.status).toBe(200);
      expect(oneText.length).toBeLessThan(items[0]!.attempts.length * 8 * 1024);
      const delivery = JSON.parse(oneText) as { body: string; attempts: { response_body: string }[] };
      for (const attempt of delivery.attempts) {
        expect(attempt.response_body.startsWith('<html><body><p>an error page')).toBe(true);
        expect(attempt.response_body).toMatch(/\[cut: the sandbox keeps the first 4096 of \d+ characters\]$/);
        expect(attempt.response_body).not.toContain('TAIL');
        expect(attempt).not.toHaveProperty('request_body'); // the delivery's body, shown once
      }
      expect(delivery.body.length).toBeGreaterThan(0);
      const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        paths: Record<string, { get?: { operationId?: string } }>;
      };
      expect(document.paths['/_sandbox/deliveries/{id}']?.get?.operationId).toBe('getDelivery');
      const missing = await fetch(`${server.url}/_sandbox/deliveries/no-such-delivery`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as Json).code).toBe('not_found');

      server.db.pragma('wal_checkpoint(TRUNCATE)');
      // 80 answers of 100 KB were about 8 MB of database before; now about 80 × 4 KiB.
      expect(size() - before).toBeLessThan(1.5 * 1024 * 1024);
    },
  );
});
