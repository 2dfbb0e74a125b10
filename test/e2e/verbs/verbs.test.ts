/**
 * The verbs, run as a process (the built `bin/payment-sandbox.js`) against one sandbox and one
 * webhook receiver on real sockets: `settle`, `fail` and `refund` a payment, `trigger` every
 * event (the subscription ones on the account's own clock only), `deliveries` and `tail`. Exit
 * 0 when done, 1 when the sandbox refused (its message printed), 2 for usage or an unreachable
 * sandbox.
 */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { CHECKOUT, DIRECT, directPayment, headers, startReceiver, type Receiver } from '../../support/app.js';
import { freePort } from '../../support/ports.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));

let sandbox: RunningSandbox;
let receiver: Receiver;
let env: NodeJS.ProcessEnv;

/** Runs the built CLI without blocking the event loop (the sandbox runs in this process). */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000, env }, (error, out, err) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out, err }),
    );
  });
}

/** A pending direct-mode payment whose webhooks go to the receiver. */
async function pendingPayment(reference: string): Promise<string> {
  const res = await fetch(`${sandbox.url}/v4/transactions`, {
    method: 'POST',
    headers: headers(DIRECT, { 'idempotency-key': reference }),
    body: JSON.stringify(directPayment({ external_identifier: reference, notification_url: receiver.url })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ ticker: false });
  // Found as every command finds it when --sandbox-url is not given.
  env = { PATH: process.env.PATH, PAYMENT_SANDBOX_URL: sandbox.url };
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.close();
});

describe('payment-sandbox settle, fail and refund', () => {
  it('plays the outcome and the refund, each with its webhook; a second outcome is refused with the message (exit 1)', async () => {
    const paid = await pendingPayment('verbs-settle');
    const settled = await cli(['settle', paid]);
    expect(settled).toMatchObject({ code: 0, out: `transaction ${paid} SUCCEEDED\n` });
    const again = await cli(['fail', paid]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^payment-sandbox fail: refused \(409\): .+/);

    const refunded = await cli(['refund', paid, '--amount', '50', '--format', 'json']);
    expect(refunded.code).toBe(0);
    expect(JSON.parse(refunded.out)).toMatchObject({ transaction_id: paid, amount: 50, status: 'SUCCESS' });

    const declined = await pendingPayment('verbs-fail');
    expect(await cli(['fail', declined, '--sandbox-url', sandbox.url])).toMatchObject({ code: 0, out: `transaction ${declined} FAILED\n` });

    const hooks = await receiver.waitFor(3);
    expect(hooks.every((h) => h.verified)).toBe(true);
    expect(hooks.map((h) => (h.body as { payment_data?: { payment_status: string } }).payment_data?.payment_status ?? 'refund')).toEqual(
      expect.arrayContaining(['SUCCEEDED', 'FAILED', 'refund']),
    );
    expect((await cli(['refund', declined])).code).toBe(1);
  });

  it('exit 2 for an unreachable sandbox (usage errors: test/unit/verbs/args.test.ts)', async () => {
    const closed = await freePort();
    const down = await cli(['deliveries', '--sandbox-url', `http://127.0.0.1:${closed}`]);
    expect(down.code).toBe(2);
    expect(down.err).toContain(`cannot reach the sandbox at http://127.0.0.1:${closed}`);
  });
});

describe('payment-sandbox trigger and deliveries', () => {
  it("creates and plays each event with the account's credentials and prints the ids", async () => {
    const before = receiver.received.length;
    const results: Record<string, Record<string, unknown>> = {};
    for (const event of ['payment.succeeded', 'payment.failed', 'refund.succeeded']) {
      const run = await cli(['trigger', event, '--webhook-url', receiver.url, '--format', 'json']);
      expect(run.code, run.err).toBe(0);
      results[event] = JSON.parse(run.out) as Record<string, unknown>;
    }
    expect(results['payment.succeeded']).toMatchObject({ account_id: DIRECT.account_id, status: 'SUCCEEDED' });
    expect(results['payment.failed']).toMatchObject({ status: 'FAILED' });
    expect(results['refund.succeeded']!.refund_id).toEqual(expect.any(String));
    await receiver.waitFor(before + 4); // two outcomes, a payment and its refund
    const text = await cli(['trigger', 'payment.succeeded', '--account', CHECKOUT.account_id]);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(
      new RegExp(`^payment.succeeded: SUCCEEDED \\(account ${CHECKOUT.account_id}\\)\\n  transaction  [0-9a-f-]{36}\\n`),
    );

    const listed = await cli(['deliveries', '--limit', '2', '--account', DIRECT.account_id, '--format', 'json']);
    expect(listed.code).toBe(0);
    const deliveries = JSON.parse(listed.out) as { id: string; merchant_account_id: string; state: string }[];
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((d) => d.merchant_account_id === DIRECT.account_id)).toBe(true);
    expect(results['refund.succeeded']!.delivery_ids).toEqual(expect.arrayContaining([deliveries[0]!.id]));
    const lines = await cli(['deliveries', '--limit', '3']);
    expect(lines.out.trim().split('\n')).toHaveLength(3);
    expect(lines.out).toMatch(/attempts=\d+ {2}last=/);
    expect((await cli(['deliveries', '--account', 'acc_nobody'])).code).toBe(1);
  });

  it("renews a subscription and makes one past_due on the account's own clock, no other account moving", async () => {
    const created = await fetch(`${sandbox.url}/_sandbox/accounts`, {
      method: 'POST',
      body: '{"mode":"direct"}',
      headers: { 'content-type': 'application/json' },
    });
    const own = ((await created.json()) as { account_id: string }).account_id;
    const clockOf = async (id: string): Promise<number> =>
      ((await (await fetch(`${sandbox.url}/_sandbox/accounts/${id}/clock`)).json()) as { offset_seconds: number }).offset_seconds;
    const directBefore = await clockOf(DIRECT.account_id);

    const renewed = await cli(['trigger', 'subscription.renewed', '--account', own, '--format', 'json']);
    expect(renewed.code, renewed.err).toBe(0);
    expect(JSON.parse(renewed.out)).toMatchObject({
      account_id: own,
      status: 'active',
      subscription_id: expect.any(String),
      charge_id: expect.any(String),
    });
    const pastDue = await cli(['trigger', 'subscription.past_due', '--account', own]);
    expect(pastDue.code, pastDue.err).toBe(0);
    expect(pastDue.out).toMatch(/^subscription.past_due: past_due /);
    expect(pastDue.out).toMatch(/ {2}subscription [0-9a-f-]{36}\n {2}charge {7}[0-9a-f-]{36}\n/);

    expect(await clockOf(own)).toBeGreaterThanOrEqual(2 * 86_400);
    expect(await clockOf(DIRECT.account_id)).toBe(directBefore);
    const checkout = await cli(['trigger', 'subscription.renewed', '--account', CHECKOUT.account_id]);
    expect(checkout.code).toBe(2);
    expect(checkout.err).toContain('needs a direct-mode account');
  });
});

describe('payment-sandbox tail', () => {
  it('prints one line per /v4 request and per webhook attempt of the account, as they happen; Ctrl-C ends it with 0', async () => {
    const child = spawn(process.execPath, [BIN, 'tail', '--account', DIRECT.account_id, '--format', 'json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const ready = new Promise<void>((resolve) =>
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
        if (err.includes('tailing')) resolve();
      }),
    );
    await ready;
    const before = receiver.received.length;
    const id = await pendingPayment('verbs-tail');
    await fetch(`${sandbox.url}/v4/transactions/${id}`, { headers: headers(CHECKOUT) }); // another account's request
    await sandbox.settle(id);
    await receiver.waitFor(before + 1);
    const lines = (): Record<string, unknown>[] =>
      out
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (let i = 0; i < 100 && !lines().some((l) => l.type === 'webhook'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(lines()).toEqual([
      expect.objectContaining({ type: 'request', method: 'POST', path: '/v4/transactions', status: 201, account_id: DIRECT.account_id }),
      expect.objectContaining({ type: 'webhook', kind: 'payment', resource_id: id, ok: true, status: 200, number: 1, url: receiver.url }),
    ]);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    const text = await cli(['tail', '--account', 'acc_nobody']);
    expect(text.code).toBe(1);
  });
});
