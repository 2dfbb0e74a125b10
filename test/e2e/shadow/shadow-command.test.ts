/**
 * The shadow proxy over real sockets: an app's run of creates, reads, pages, refunds, errors
 * and idempotent retries through the proxy to an upstream that is a sandbox of this build
 * compares equal (its webhooks too); the same run against a drifting upstream lists each drift
 * with its route and pointer and nothing else (and `shadow report` exits 1 naming them); the
 * run's recording becomes a fixtures document that recreates its payments in a fresh sandbox.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  fixturesFromRecording,
  parseRecording,
  startSandbox,
  startShadow,
  type RunningSandbox,
  type ShadowReport,
} from '../../../src/index.js';
import { freePort } from '../../support/ports.js';
import { perTest } from '../../support/servers.js';
import { until } from '../../support/until.js';
import { startDriftProxy } from '../conformance/drift-proxy.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const each = perTest();

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Headers;
}

/** An app that calls `apiUrl` with the upstream's demo credentials. */
function appClient(apiUrl: string, credentials: RunningSandbox['credentials']['direct']) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(apiUrl + path, {
      method,
      headers: { ...credentials.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), text, headers: res.headers };
  };
}

const payment = (amount: number, card = '4242424242424242', extra: Record<string, unknown> = {}) => ({
  amount,
  currency: 'USD',
  description: `order of ${amount}`,
  customer: { email: 'jane@example.com', name: 'Jane Doe' },
  external_identifier: `order-${amount}`,
  payment_method: { type: 'card', number: card, expiration_date: '12/30', security_code: '123' },
  browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'shop', user_device: 'desktop' },
  ...extra,
});

/** The app's run: creates, reads, pages, refunds, errors and an idempotent retry. Resolves with the ids it created. */
async function appRun(call: ReturnType<typeof appClient>, notificationUrl?: string): Promise<string[]> {
  const first = await call(
    'POST',
    '/transactions',
    payment(1200, '4242424242424242', notificationUrl ? { notification_url: notificationUrl } : {}),
  );
  expect(first.status).toBe(201);
  const second = await call('POST', '/transactions', payment(2500));
  const declined = await call('POST', '/transactions', payment(990, '4000000000000002'));
  const keyed = await call('POST', '/transactions', payment(4100), { 'idempotency-key': 'order-4100' });
  const retried = await call('POST', '/transactions', payment(4100), { 'idempotency-key': 'order-4100' });
  expect(retried.body.id).toBe(keyed.body.id);
  const ids = [first, second, declined, keyed].map((a) => String(a.body.id));
  for (const id of ids) expect((await call('GET', `/transactions/${id}`)).status).toBe(200);
  const page = await call('GET', '/transactions?limit=2');
  expect(page.status).toBe(200);
  expect((await call('GET', `/transactions?limit=2&cursor=${encodeURIComponent(String(page.body.next_cursor))}`)).status).toBe(200);
  expect((await call('POST', `/transactions/${ids[1]}/refunds`, { amount: 500 })).status).toBe(201);
  expect((await call('POST', `/transactions/${ids[1]}/refunds`, { amount: 100_000 })).status).toBeGreaterThanOrEqual(400);
  expect(Number((await call('GET', `/transactions/${ids[1]}`)).body.refunded_amount)).toBe(500);
  expect((await call('GET', '/transactions/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  expect((await call('POST', '/transactions', { ...payment(10), amount: 'ten' })).status).toBe(400);
  expect([404, 405]).toContain((await call('DELETE', '/transactions')).status); // 404 from the drifting upstream
  expect((await call('GET', '/transactions', undefined, { authorization: 'Bearer sk_test_not_a_key' })).status).toBe(401);
  return ids;
}

async function shadowReport(url: string): Promise<ShadowReport> {
  return (await (await fetch(`${url}/_sandbox/shadow`)).json()) as ShadowReport;
}

describe('shadow', () => {
  it('compares equal against a sandbox of the same build, webhooks too, and its recording recreates the payments', async () => {
    const upstream = await startSandbox({ quiet: true });
    each.defer(() => upstream.stop());
    const record = join(mkdtempSync(join(tmpdir(), 'shadow-')), 'run.jsonl');
    const shadow = await startShadow({
      upstream: upstream.apiUrl,
      apiKey: upstream.credentials.direct.api_key,
      accountId: upstream.credentials.direct.account_id,
      record,
      webhookPort: 0,
    });
    each.defer(() => shadow.stop());
    expect((await fetch(`${shadow.url}/_sandbox/health`)).status).toBe(200);

    const call = appClient(`${shadow.url}/v4`, upstream.credentials.direct);
    // the app gets the upstream's answer as it came: the same bytes a direct read answers
    const ids = await appRun(call, `${shadow.webhookUrl}/webhooks`);
    const direct = await appClient(upstream.apiUrl, upstream.credentials.direct)('GET', `/transactions/${ids[0]}`);
    expect((await call('GET', `/transactions/${ids[0]}`)).text).toBe(direct.text);

    const report = await until(
      'the webhook pair compared',
      async () => {
        const r = await shadowReport(shadow.url);
        return r.summary.webhooks_compared >= 1 ? r : undefined;
      },
      15_000,
    );
    expect(report.differences).toEqual([]);
    expect(report.errors).toEqual([]);
    // the upstream's webhook reached the proxy and was acknowledged (the app's notification_url was the proxy itself)
    await upstream.waitForDelivery((d) => d.url === `${shadow.webhookUrl}/webhooks` && d.status === 'delivered', 10_000);
    expect(report.summary.compared).toBe(report.summary.exchanges);
    expect(report.summary.exchanges).toBe(19);

    // the recording: one redacted line per exchange
    await shadow.stop();
    const text = readFileSync(record, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(19);
    expect(text).not.toContain('4242424242424242');
    expect(text).not.toContain(upstream.credentials.direct.api_key);
    expect(text).not.toContain('"security_code"');

    // its fixtures document, loaded into a fresh sandbox, recreates the payments, outcomes and refunds
    const fresh = await startSandbox({ quiet: true });
    each.defer(() => fresh.stop());
    await fresh.loadFixtures(fixturesFromRecording(parseRecording(text)));
    const summary = async (s: RunningSandbox) => {
      const page = await appClient(s.apiUrl, s.credentials.direct)('GET', '/transactions?limit=100');
      return (page.body.items as Record<string, unknown>[])
        .map((t) => ({ amount: t.amount, status: t.status, refunded_amount: t.refunded_amount, currency: t.currency }))
        .sort((a, b) => Number(a.amount) - Number(b.amount));
    };
    const recreated = await summary(fresh);
    expect(recreated).toEqual(await summary(upstream));
    expect(recreated).toHaveLength(4);
  });

  it('lists each drift of the upstream with its route and pointer, and nothing else', async () => {
    const upstream = await startSandbox({ quiet: true });
    each.defer(() => upstream.stop());
    const drifting = await startDriftProxy(upstream.url, ['status', 'changed_type', 'error_pointer', 'page_order']);
    each.defer(() => drifting.close());
    const shadow = await startShadow({
      upstream: drifting.apiUrl,
      apiKey: upstream.credentials.direct.api_key,
      accountId: upstream.credentials.direct.account_id,
    });
    each.defer(() => shadow.stop());
    await appRun(appClient(`${shadow.url}/v4`, upstream.credentials.direct));

    const report = await shadowReport(shadow.url);
    const found = [...new Set(report.differences.map((d) => `${d.kind} ${d.route} ${d.pointer}`))].sort();
    expect(found).toEqual(
      [
        // 405 answered 404 not_found
        'status DELETE /v4/transactions /status',
        'value DELETE /v4/transactions /body/status',
        'error DELETE /v4/transactions /body/code',
        // refunded_amount a string on a read
        'type GET /v4/transactions/{transaction_id} /body/refunded_amount',
        // a validation error's pointer
        'error POST /v4/transactions /body/details/0/pointer',
        // the page's records in reverse order (both pages of two)
        'order GET /v4/transactions /body/items/0/id',
        'order GET /v4/transactions /body/items/1/id',
      ].sort(),
    );
    const typeDrift = report.by_kind.type![0]!;
    expect(typeDrift).toMatchObject({ upstream: 'string', sandbox: 'integer' });
    expect(report.by_kind.error!.find((d) => d.pointer === '/body/details/0/pointer')).toMatchObject({
      upstream: '/amount/value',
      sandbox: '/amount',
    });
    expect(report.summary.differences).toBe(report.differences.length);

    // the command: exit 1, each difference with its route and pointer
    const child = spawn(process.execPath, [BIN, 'shadow', 'report', '--sandbox-url', shadow.url]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // 'close', not 'exit': the process can exit before its output has been read from the pipes.
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(out).toContain('GET /v4/transactions/{transaction_id}  /body/refunded_amount: upstream "string", sandbox "integer"');
    expect(out).toContain(`shadow: ${report.summary.differences} differences`);

    // an upstream that no longer answers: the app gets the error envelope, not a hang or a 500
    await drifting.close();
    const gone = await appClient(`${shadow.url}/v4`, upstream.credentials.direct)('GET', '/transactions');
    expect(gone.status).toBe(502);
    expect(gone.body).toMatchObject({ type: 'error', status: 502, code: 'server_error' });
  });

  it("compares the upstream's webhook that reaches the proxy with the sandbox's, and forwards it to the app", async () => {
    const port = await freePort();
    const app = await each.receive();
    const upstream = await startSandbox({ quiet: true, notificationUrl: `http://127.0.0.1:${port}/hooks` });
    each.defer(() => upstream.stop());
    const shadow = await startShadow({
      upstream: upstream.apiUrl,
      apiKey: upstream.credentials.direct.api_key,
      accountId: upstream.credentials.direct.account_id,
      webhookPort: port,
      forwardWebhooksTo: app.url,
    });
    each.defer(() => shadow.stop());
    const call = appClient(`${shadow.url}/v4`, upstream.credentials.direct);
    const paid = await call('POST', '/transactions', payment(1200));
    // the app gets the upstream's webhook, its bytes and signature as they were sent
    const [hook] = await app.waitFor(1);
    expect(hook!.verified).toBe(true);
    const sent = await upstream.waitForDelivery((d) => d.resource_id === paid.body.id && d.status === 'delivered');
    expect(hook!.raw).toBe(sent.body);
    const report = await until('the webhook pair compared', async () => {
      const r = await shadowReport(shadow.url);
      return r.summary.webhooks_compared === 1 ? r : undefined;
    });
    expect(report.differences).toEqual([]);

    // a payment whose notification_url is the proxy itself: its webhook is acknowledged there, not sent round again
    const pending = await call(
      'POST',
      '/transactions',
      payment(700, '4111111111111111', { notification_url: `http://127.0.0.1:${port}/hooks` }),
    );
    await shadowReport(shadow.url); // its sandbox side ran: the proxy knows the app's notification_url
    await upstream.settle(String(pending.body.id));
    await upstream.waitForDelivery((d) => d.resource_id === pending.body.id && d.status === 'delivered', 5_000);
    expect(app.received).toHaveLength(1);
  });

  it('does not start against an upstream that refuses the credentials, nor with a recording it cannot write', async () => {
    const upstream = await startSandbox({ quiet: true });
    each.defer(() => upstream.stop());
    await expect(startShadow({ upstream: upstream.apiUrl, apiKey: 'sk_test_wrong', accountId: 'acc_demo_direct' })).rejects.toThrow(
      /refused the credentials \(401\): check --api-key and --account-id/,
    );
    const { api_key: apiKey, account_id: accountId } = upstream.credentials.direct;
    const record = join(mkdtempSync(join(tmpdir(), 'shadow-')), 'missing-folder', 'run.jsonl');
    await expect(startShadow({ upstream: upstream.apiUrl, apiKey, accountId, record })).rejects.toThrow(/cannot write --record/);
  });
});
