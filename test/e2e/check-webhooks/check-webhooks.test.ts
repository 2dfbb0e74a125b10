/**
 * `check-webhooks` over real sockets: the battery against a good and a bad
 * sample handler (programmatic API), the signing modes, and the real bin: exit codes, the
 * line-per-case output and the `--json` report.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ORDERS_USED, WEBHOOK_CHECK_IDS, checkWebhooks, type WebhookCheckReport } from '../../../src/features/check-webhooks/index.js';
import { startSandbox } from '../../../src/index.js';
import {
  badHandler,
  goodHandler,
  shopHandler,
  slowHandler,
  strictHandler,
  type SampleHandler,
  type ShopHandler,
} from '../../support/webhook-handlers.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const open: SampleHandler[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});
async function track<H extends SampleHandler>(h: Promise<H>): Promise<H> {
  const handler = await h;
  open.push(handler);
  return handler;
}

function verdicts(report: WebhookCheckReport): Record<string, boolean> {
  return Object.fromEntries(report.checks.map((c) => [c.id, c.passed]));
}

function runBin(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'check-webhooks', ...args], { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // 'close', not 'exit': the process can exit before its output has been read from the pipes.
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('checkWebhooks (programmatic API)', () => {
  it('a good handler (RSA verification with the published PEM, idempotent) passes every check, with one effect per event', async () => {
    const good = await track(goodHandler());
    const report = await checkWebhooks(good.url);
    expect(report.checks.map((c) => c.id)).toEqual([...WEBHOOK_CHECK_IDS]);
    expect(report.checks.filter((c) => !c.passed)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.signing).toBe('rsa');
    // The duplicate and the refund sent again did not take effect twice.
    expect(new Set(good.effects).size).toBe(good.effects.length);
    expect(good.requests).toBe(21);
    expect(good.effects).toHaveLength(15);
  });

  it('a bad handler (accepts anything, 500 on a repeat) fails the signature, duplicate and refund-before-payment checks and passes the rest', async () => {
    const bad = await track(badHandler());
    const report = await checkWebhooks(bad.url);
    expect(report.passed).toBe(false);
    expect(verdicts(report)).toEqual({
      payment_succeeded: true,
      payment_failed: true,
      refund: true,
      tampered_body: false,
      wrong_key: false,
      missing_signature: false,
      raw_body: true,
      duplicate_delivery: false,
      refund_before_payment: false,
      unknown_field: true,
      unknown_status: true,
      intermediate_status: false,
      large_body: true,
      time_limit: true,
    });
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('tampered_body')!.reason).toMatch(/^answer: accepted a forged delivery: HTTP 200/);
    expect(byId.get('duplicate_delivery')!.reason).toMatch(/repeated delivery was not acknowledged: HTTP 500/);
    expect(byId.get('duplicate_delivery')!.exchanges.map((e) => e.status)).toEqual([200, 500, 200, 500]);
    // It takes the SUCCEEDED after a PROCESSING of the same transaction for a repeat.
    expect(byId.get('intermediate_status')!.reason).toMatch(/the SUCCEEDED webhook after it: expected .* got HTTP 500/);
  });

  it('a handler that verifies re-serialized JSON (JSON.stringify(JSON.parse(raw))) instead of the raw bytes fails raw_body, and only it', async () => {
    for (const secret of [undefined, 'whsec_test']) {
      const reserializing = await track(goodHandler({ reserialize: true, ...(secret ? { secret } : {}) }));
      const report = await checkWebhooks(reserializing.url, secret ? { signing: { mode: 'hmac', secret } } : {});
      expect(report.passed).toBe(false);
      expect(report.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(['raw_body']);
      const rawBody = report.checks.find((c) => c.id === 'raw_body')!;
      expect(rawBody.reason).toMatch(/^answer: expected 2xx \{"code":"200","message":"SUCCESS"\}, got HTTP 401/);
      // A refused well-signed delivery points to the explanation of failed signature checks.
      expect(rawBody.reason).toContain('POST /_sandbox/signatures/explain');
      expect(rawBody.reason).toContain('/docs/webhooks#why-a-signature-check-fails');
      // What was sent is valid JSON meaning the same payment, only written differently.
      expect(rawBody.exchanges[0]!.label).toMatch(/indented and with \\u escapes$/);
    }
  });

  it('hmac mode: a handler that checks the HMAC passes; an RSA-only handler rejects HMAC-signed deliveries and fails', async () => {
    const hmacGood = await track(goodHandler({ secret: 'whsec_test' }));
    const ok = await checkWebhooks(hmacGood.url, { signing: { mode: 'hmac', secret: 'whsec_test' }, timeZone: 'Asia/Shanghai' });
    expect(ok.checks.filter((c) => !c.passed)).toEqual([]);
    expect(ok.timeZone).toBe('Asia/Shanghai');
    const rsaGood = await track(goodHandler());
    const mismatch = await checkWebhooks(rsaGood.url, { signing: { mode: 'hmac', secret: 'whsec_test' } });
    expect(verdicts(mismatch).payment_succeeded).toBe(false);
    expect(mismatch.checks[0]!.reason).toContain('HTTP 401');
  });

  it('a handler slower than the time limit fails time_limit and the cases it left unanswered', async () => {
    const slow = await track(slowHandler(2_000));
    const report = await checkWebhooks(slow.url, { timeoutMs: 200 });
    const v = verdicts(report);
    expect(v.time_limit).toBe(false);
    expect(v.payment_succeeded).toBe(false);
    expect(report.checks.find((c) => c.id === 'time_limit')!.reason).toMatch(/had no answer within 0.2 s/);
  });

  it('a URL nothing listens on fails every delivery case with the connection error', async () => {
    const gone = await goodHandler();
    await gone.close();
    const report = await checkWebhooks(gone.url, { timeoutMs: 2_000 });
    expect(report.passed).toBe(false);
    expect(report.checks[0]!.reason).toContain('ECONNREFUSED');
  });

  it('forward compatibility: extra fields, an unknown status and a 256 KiB body are each well signed and must be acknowledged', async () => {
    const good = await track(goodHandler());
    const report = await checkWebhooks(good.url);
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('unknown_field')!.passed).toBe(true);
    expect(byId.get('unknown_status')!.exchanges[0]!.label).toMatch(/^PROCESSING payment webhook/);
    expect(byId.get('large_body')!.exchanges[0]!.label).toMatch(/\((25\d|26\d) KiB\)$/);
    // A handler that refuses what it does not know fails them.
    const strict = await track(strictHandler());
    const strictReport = await checkWebhooks(strict.url);
    expect(verdicts(strictReport)).toMatchObject({
      unknown_field: false,
      unknown_status: false,
      large_body: false,
      payment_succeeded: true,
    });
  });

  it('refuses a URL that is not http(s)', async () => {
    await expect(checkWebhooks('ftp://127.0.0.1/hook')).rejects.toThrow(TypeError);
  });
});

describe('the state check (stateUrl)', () => {
  it("a good handler's state matches every case: applied once when well signed, untouched when forged, PROCESSING not paid", async () => {
    for (const secret of [undefined, 'whsec_state']) {
      const good = await track(goodHandler(secret ? { secret } : {}));
      const stateUrl = good.url.replace(/\/webhooks$/, '/orders');
      const report = await checkWebhooks(good.url, { stateUrl, ...(secret ? { signing: { mode: 'hmac' as const, secret } } : {}) });
      expect(report.checks.filter((c) => !c.passed)).toEqual([]);
      expect(report.stateUrl).toBe(stateUrl);
      for (const c of report.checks) expect([c.id, c.statePassed]).toEqual([c.id, c.id === 'time_limit' ? null : true]);
      expect(report.checks.find((c) => c.id === 'refund')!.state[0]!.body).toEqual({ payment_status: 'SUCCEEDED', refunded_amount: 500 });
    }
  });

  it('a handler that applies a forged delivery before refusing it fails the forged cases, saying what its state showed', async () => {
    const flawed = await track(goodHandler({ flaw: 'applies_forged' }));
    const report = await checkWebhooks(flawed.url, { stateUrl: flawed.url.replace(/\/webhooks$/, '/orders') });
    const forged = report.checks.filter((c) => ['tampered_body', 'wrong_key', 'missing_signature'].includes(c.id));
    for (const c of forged) {
      expect(c.answerPassed).toBe(true);
      expect(c.statePassed).toBe(false);
      expect(c.reason).toMatch(
        /^state: GET http:\/\/127\.0\.0\.1:\d+\/orders\/check-\S+ showed \{"payment_status":"SUCCEEDED","refunded_amount":0\} after a /,
      );
      expect(c.reason).toContain('must change nothing');
    }
  });

  it('a handler that counts a repeated refund twice fails duplicate_delivery, saying the refunded amount it showed', async () => {
    const flawed = await track(goodHandler({ flaw: 'counts_refund_twice' }));
    const report = await checkWebhooks(flawed.url, { stateUrl: flawed.url.replace(/\/webhooks$/, '/orders') });
    const duplicate = report.checks.find((c) => c.id === 'duplicate_delivery')!;
    expect(duplicate.passed).toBe(false);
    expect(duplicate.answerPassed).toBe(true);
    expect(duplicate.reason).toContain('"refunded_amount":1000');
    expect(duplicate.reason).toContain('the refund must be counted once (refunded_amount 500)');
    expect(verdicts(report).refund_before_payment).toBe(false);
  });

  it('a handler that takes PROCESSING as paid fails unknown_status, saying its state showed SUCCEEDED', async () => {
    const flawed = await track(goodHandler({ flaw: 'processing_is_paid' }));
    const report = await checkWebhooks(flawed.url, { stateUrl: flawed.url.replace(/\/webhooks$/, '/orders') });
    expect(report.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(['unknown_status']);
    const c = report.checks.find((x) => x.id === 'unknown_status')!;
    expect(c.reason).toMatch(
      /showed \{"payment_status":"SUCCEEDED"\S*\} after a PROCESSING payment webhook; a status the handler does not know must not be taken as paid/,
    );
  });

  it('one transaction PROCESSING then SUCCEEDED must end SUCCEEDED: a handler that remembers the transaction alone fails intermediate_status, and only it', async () => {
    const good = await track(goodHandler());
    const passing = await checkWebhooks(good.url, { stateUrl: good.url.replace(/\/webhooks$/, '/orders') });
    const ok = passing.checks.find((c) => c.id === 'intermediate_status')!;
    expect([ok.passed, ok.statePassed]).toEqual([true, true]);
    expect(ok.exchanges.map((e) => [e.label.split(' ')[0], e.acknowledged])).toEqual([
      ['PROCESSING', true],
      ['SUCCEEDED', true],
    ]);
    // The two deliveries are one transaction: the same ll_transaction_id and order, two statuses.
    expect(ok.state[0]!.body).toEqual({ payment_status: 'SUCCEEDED', refunded_amount: 0 });

    const flawed = await track(goodHandler({ flaw: 'one_event_per_transaction' }));
    const report = await checkWebhooks(flawed.url, { stateUrl: flawed.url.replace(/\/webhooks$/, '/orders') });
    expect(report.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(['intermediate_status']);
    const c = report.checks.find((x) => x.id === 'intermediate_status')!;
    expect([c.answerPassed, c.statePassed, c.outcome]).toEqual([true, false, 'failed']);
    expect(c.reason).toMatch(
      /showed \{"payment_status":null\S*\} after a PROCESSING then a SUCCEEDED payment webhook of one transaction; the terminal SUCCEEDED .* must be applied/,
    );
  });

  it('a state URL that answers nothing usable fails the cases with the answer it got', async () => {
    const good = await track(goodHandler());
    const report = await checkWebhooks(good.url, { stateUrl: good.url.replace(/\/webhooks$/, '/nothing-here') });
    expect(report.checks[0]!.passed).toBe(false);
    expect(report.checks[0]!.reason).toContain('state: GET');
    expect(report.checks[0]!.reason).toContain('expected 200 {"payment_status"');
  });
});

describe('orders the shop created (orders, --orders)', () => {
  /** The cases that require an outcome applied to an order the shop knows. */
  const NEED_ORDERS = [
    'payment_succeeded',
    'payment_failed',
    'refund',
    'raw_body',
    'duplicate_delivery',
    'refund_before_payment',
    'unknown_field',
    'intermediate_status',
    'large_body',
  ];
  const outcomes = (report: WebhookCheckReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.outcome]));
  /** A shop with `n` pending orders it created, and their ids. */
  async function shopWithOrders(n: number): Promise<{ shop: ShopHandler; stateUrl: string; orders: string[] }> {
    const shop = await track(shopHandler());
    const orders = Array.from({ length: n }, (_, i) => `order-${1001 + i}`);
    for (const o of orders) shop.createOrder(o);
    return { shop, stateUrl: shop.url.replace(/\/webhooks$/, '/orders'), orders };
  }

  it('a shop that ignores orders it never created: without orders those cases need orders (not failures); with them every case passes', async () => {
    expect(NEED_ORDERS).toHaveLength(ORDERS_USED);
    const { shop, stateUrl, orders } = await shopWithOrders(ORDERS_USED);
    const without = await checkWebhooks(shop.url, { stateUrl });
    expect(outcomes(without)).toEqual(
      Object.fromEntries(WEBHOOK_CHECK_IDS.map((id) => [id, NEED_ORDERS.includes(id) ? 'needs_orders' : 'passed'])),
    );
    expect(without.passed).toBe(true); // nothing failed
    expect(without.needsOrders).toEqual(NEED_ORDERS);
    expect(without.orders).toEqual([]);
    const needing = without.checks.find((c) => c.id === 'payment_succeeded')!;
    expect([needing.passed, needing.answerPassed, needing.statePassed]).toEqual([false, true, null]);
    expect(needing.reason).toMatch(
      /^acknowledged \(HTTP 200 .*\); needs --orders: GET http:\/\/127\.0\.0\.1:\d+\/orders\/check-\S+ answered 404/,
    );
    // A forged delivery about an order the shop does not know changed nothing it holds.
    expect(without.checks.find((c) => c.id === 'tampered_body')!.reason).toContain('the order is unknown to the shop (404)');

    const withOrders = await checkWebhooks(shop.url, { stateUrl, orders });
    expect(withOrders.checks.filter((c) => !c.passed)).toEqual([]);
    expect(withOrders.needsOrders).toEqual([]);
    expect(withOrders.orders).toEqual(orders);
    expect(withOrders.checks.filter((c) => c.order !== null).map((c) => [c.id, c.order])).toEqual(
      NEED_ORDERS.map((id, i) => [id, orders[i]]),
    );
    expect(withOrders.checks.find((c) => c.id === 'refund')!.state[0]!.body).toEqual({ payment_status: 'SUCCEEDED', refunded_amount: 500 });
  });

  it('too few orders: the cases after the last one need orders; an order the shop does not know fails its case', async () => {
    const { shop, stateUrl, orders } = await shopWithOrders(3);
    const report = await checkWebhooks(shop.url, { stateUrl, orders });
    expect(report.needsOrders).toEqual(NEED_ORDERS.slice(3));
    expect(report.checks.filter((c) => c.outcome === 'failed')).toEqual([]);

    const unknown = await checkWebhooks(shop.url, { stateUrl, orders: ['never-created'] });
    const c = unknown.checks.find((x) => x.id === 'payment_succeeded')!;
    expect([c.outcome, c.answerPassed, c.statePassed]).toEqual(['failed', true, false]);
    expect(c.reason).toContain('HTTP 404');
    expect(c.reason).toContain('the order never-created named in --orders must be one the shop created and knows');
    expect(unknown.passed).toBe(false);
  });

  it('refuses orders that are not distinct ids of 1 to 64 characters', async () => {
    await expect(checkWebhooks('http://127.0.0.1:9/webhooks', { orders: ['a', 'a'] })).rejects.toThrow(/named twice/);
    await expect(checkWebhooks('http://127.0.0.1:9/webhooks', { orders: ['x'.repeat(65)] })).rejects.toThrow(TypeError);
  });

  it('the control API takes "orders": a running sandbox checks the shop with the orders it created', async () => {
    const { shop, stateUrl, orders } = await shopWithOrders(ORDERS_USED);
    const sandbox = await startSandbox();
    try {
      const run = async (extra: Record<string, unknown>) => {
        const res = await fetch(`${sandbox.url}/_sandbox/check-webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: shop.url, state_url: stateUrl, ...extra }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as WebhookCheckReport;
      };
      const without = await run({});
      expect([without.passed, without.needsOrders]).toEqual([true, NEED_ORDERS]);
      const withOrders = await run({ orders });
      expect([withOrders.passed, withOrders.needsOrders, withOrders.orders]).toEqual([true, [], orders]);
      expect(withOrders.checks.every((c) => c.outcome === 'passed')).toBe(true);
    } finally {
      await sandbox.stop();
    }
  });

  it('the bin: NEED lines and exit 0 without --orders, all PASS with them, exit 2 for bad --orders', async () => {
    const { shop, stateUrl, orders } = await shopWithOrders(ORDERS_USED);
    const without = await runBin([shop.url, '--state-url', stateUrl]);
    expect(without.code).toBe(0);
    const lines = without.out.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('NEED '))).toHaveLength(ORDERS_USED);
    expect(without.out).toMatch(/^NEED\s+intermediate_status\s.*needs --orders/m);
    expect(lines.at(-1)).toBe(
      `0 of ${WEBHOOK_CHECK_IDS.length} checks failed; ${ORDERS_USED} of ${WEBHOOK_CHECK_IDS.length} need --orders (not failures)`,
    );

    const withOrders = await runBin([shop.url, '--state-url', stateUrl, '--orders', orders.join(',')]);
    expect(withOrders.code).toBe(0);
    expect(withOrders.out.split('\n')[0]).toContain(`, orders ${orders.join(',')})`);
    expect(withOrders.out.trim().split('\n').at(-1)).toBe(`all ${WEBHOOK_CHECK_IDS.length} checks passed`);

    const noState = await runBin([shop.url, '--orders', 'a,b']);
    expect([noState.code, noState.err]).toEqual([
      2,
      'payment-sandbox check-webhooks: --orders needs --state-url: the orders are read back through it\n',
    ]);
    const twice = await runBin([shop.url, '--state-url', stateUrl, '--orders', 'a,a']);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('invalid --orders "a,a"');
  });
});

describe('payment-sandbox check-webhooks (the real bin)', () => {
  it('--state-url: exits 0 against the good handler and 1 against one that applies forged deliveries', async () => {
    const good = await track(goodHandler());
    const ok = await runBin([good.url, '--state-url', good.url.replace(/\/webhooks$/, '/orders')]);
    expect(ok.code).toBe(0);
    expect(ok.out.split('\n')[0]).toContain(', state http://127.0.0.1:');
    const flawed = await track(goodHandler({ flaw: 'applies_forged' }));
    const bad = await runBin([flawed.url, '--state-url', flawed.url.replace(/\/webhooks$/, '/orders')]);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^FAIL\s+tampered_body\s.*state: GET .* showed \{"payment_status":"SUCCEEDED"/m);
    const wrong = await runBin([good.url, '--state-url', 'ftp://x']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--state-url');
  });

  it('exits 0 against the good handler, one PASS line per case', async () => {
    const good = await track(goodHandler());
    const r = await runBin([good.url]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('PASS '))).toHaveLength(WEBHOOK_CHECK_IDS.length);
    expect(lines.filter((l) => l.startsWith('FAIL '))).toHaveLength(0);
    expect(lines.at(-1)).toBe(`all ${WEBHOOK_CHECK_IDS.length} checks passed`);
  });

  it('exits 1 against the bad handler, naming each failed case and why', async () => {
    const bad = await track(badHandler());
    const r = await runBin([bad.url]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL\s+tampered_body\s.*accepted a forged delivery/m);
    expect(r.out).toMatch(/^FAIL\s+duplicate_delivery\s.*HTTP 500/m);
    expect(r.out).toMatch(/^PASS\s+payment_succeeded\s/m);
    expect(r.out.trim().split('\n').at(-1)).toBe(`6 of ${WEBHOOK_CHECK_IDS.length} checks failed`);
  });

  it('--json prints the typed report; hmac signing and timezone come from the main CLI flags or their variables', async () => {
    const good = await track(goodHandler({ secret: 's3cret' }));
    const r = await runBin([good.url, '--json', '--webhook-timezone', 'Europe/Paris'], {
      PAYMENT_SANDBOX_WEBHOOK_SIGNING: 'hmac',
      PAYMENT_SANDBOX_WEBHOOK_SECRET: 's3cret',
    });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as WebhookCheckReport;
    expect(report).toMatchObject({ url: good.url, signing: 'hmac', timeZone: 'Europe/Paris', timeoutMs: 10_000, passed: true });
    expect(report.checks.map((c) => c.id)).toEqual([...WEBHOOK_CHECK_IDS]);
    expect(report.checks[0]!.exchanges[0]).toMatchObject({ status: 200, acknowledged: true, error: null });
  });

  it('exits 2 with one line for bad options: hmac without a secret, an unknown zone, a non-http URL, no URL', async () => {
    const a = await runBin(['http://127.0.0.1:9/x', '--webhook-signing', 'hmac']);
    expect([a.code, a.err.trim().split('\n').length]).toEqual([2, 1]);
    expect(a.err).toContain('--webhook-secret');
    const b = await runBin(['http://127.0.0.1:9/x', '--webhook-timezone', 'Mars/Olympus']);
    expect(b.code).toBe(2);
    expect(b.err).toContain('--webhook-timezone');
    const c = await runBin(['file:///etc/passwd']);
    expect(c.code).toBe(2);
    expect(c.err).toContain('must be an http(s) URL');
    const d = await runBin([]);
    expect(d.code).toBe(2);
  });
});
