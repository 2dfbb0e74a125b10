/**
 * `check-webhooks` over real sockets: the battery against a good and a bad
 * sample handler (programmatic API), the signing modes, and the real bin: exit codes, the
 * line-per-case output and the `--json` report.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_CHECK_IDS, checkWebhooks, type WebhookCheckReport } from '../../../src/features/check-webhooks/index.js';
import { badHandler, goodHandler, slowHandler, type SampleHandler } from '../../support/webhook-handlers.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const open: SampleHandler[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});
async function track(h: Promise<SampleHandler>): Promise<SampleHandler> {
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
    child.on('exit', (code) => resolve({ code, out, err }));
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
    expect(good.requests).toBe(13);
    expect(good.effects).toHaveLength(8);
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
      time_limit: true,
    });
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('tampered_body')!.reason).toMatch(/^accepted a forged delivery: HTTP 200/);
    expect(byId.get('duplicate_delivery')!.reason).toMatch(/repeated delivery was not acknowledged: HTTP 500/);
    expect(byId.get('duplicate_delivery')!.exchanges.map((e) => e.status)).toEqual([200, 500]);
  });

  it('a handler that verifies re-serialized JSON (JSON.stringify(JSON.parse(raw))) instead of the raw bytes fails raw_body, and only it', async () => {
    for (const secret of [undefined, 'whsec_test']) {
      const reserializing = await track(goodHandler({ reserialize: true, ...(secret ? { secret } : {}) }));
      const report = await checkWebhooks(reserializing.url, secret ? { signing: { mode: 'hmac', secret } } : {});
      expect(report.passed).toBe(false);
      expect(report.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(['raw_body']);
      const rawBody = report.checks.find((c) => c.id === 'raw_body')!;
      expect(rawBody.reason).toMatch(/^expected 2xx \{"code":"200","message":"SUCCESS"\}, got HTTP 401/);
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

  it('refuses a URL that is not http(s)', async () => {
    await expect(checkWebhooks('ftp://127.0.0.1/hook')).rejects.toThrow(TypeError);
  });
});

describe('payment-sandbox check-webhooks (the real bin)', () => {
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
    expect(r.out.trim().split('\n').at(-1)).toBe(`5 of ${WEBHOOK_CHECK_IDS.length} checks failed`);
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
