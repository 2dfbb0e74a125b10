/**
 * The verbs through the CLI's `main` in this process, against a sandbox and a webhook receiver
 * on loopback: what `settle`, `fail`, `refund`, `trigger`, `deliveries` and `tail` print as text
 * and as JSON, what the sandbox recorded, and the exit codes (0 done, 1 refused, 2 unreachable).
 * The built CLI as a process: e2e/verbs.
 */
import { describe, expect, it } from 'vitest';
import { parseVerb, runParsedVerb, type ParsedVerb } from '../../../src/features/verbs/index.js';
import { CHECKOUT, DIRECT, directPayment, headers } from '../../support/app.js';
import { runMain } from '../../support/in-process-cli.js';
import { freePort } from '../../support/ports.js';
import { startRelay } from '../../support/relay.js';
import { perTest } from '../../support/servers.js';
import { until } from '../../support/until.js';

const per = perTest();

/** A sandbox whose webhooks go to a receiver, and `main` run with the sandbox found from the environment. */
async function setup() {
  const receiver = await per.receive();
  const server = await per.serve({ notificationUrl: receiver.url });
  const cli = (...args: string[]) => runMain(args, { PAYMENT_SANDBOX_URL: server.url });
  const pending = async (reference: string): Promise<string> => {
    const res = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(DIRECT, { 'idempotency-key': reference }),
      body: JSON.stringify(directPayment({ external_identifier: reference, notification_url: receiver.url })),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const status = async (id: string): Promise<string> =>
    ((await (await fetch(`${server.url}/v4/transactions/${id}`, { headers: headers(DIRECT) })).json()) as { status: string }).status;
  return { receiver, server, cli, pending, status };
}

describe('settle, fail and refund in process', () => {
  it('settle and fail print the outcome the sandbox recorded; a second outcome is refused (exit 1)', async () => {
    const { cli, pending, status, receiver } = await setup();
    const paid = await pending('in-process-settle');
    expect(await cli('settle', paid)).toEqual({ code: 0, out: `transaction ${paid} SUCCEEDED\n`, err: '' });
    expect(await status(paid)).toBe('SUCCEEDED');
    const again = await cli('fail', paid);
    expect(again.code).toBe(1);
    expect(again.out).toBe('');
    expect(again.err).toMatch(/^payment-sandbox fail: refused \(409\): .+\n$/);

    const declined = await pending('in-process-fail');
    const failed = await cli('fail', declined, '--format', 'json');
    expect(failed.code).toBe(0);
    expect(JSON.parse(failed.out)).toMatchObject({ id: declined, status: 'FAILED' });
    expect(await status(declined)).toBe('FAILED');
    const hooks = await receiver.waitFor(2);
    expect(hooks.map((h) => (h.body as { payment_data?: { payment_status: string } }).payment_data?.payment_status).sort()).toEqual([
      'FAILED',
      'SUCCEEDED',
    ]);
  });

  it('refund prints the refund (text and JSON); the default is the remainder; nothing left is refused', async () => {
    const { cli, pending } = await setup();
    const paid = await pending('in-process-refund');
    expect((await cli('settle', paid)).code).toBe(0);
    const part = await cli('refund', paid, '--amount', '50', '--format', 'json');
    expect(part.code, part.err).toBe(0);
    expect(JSON.parse(part.out)).toMatchObject({ transaction_id: paid, amount: 50, status: 'SUCCESS' });
    const amount = (directPayment() as { amount: number }).amount;
    const rest = await cli('refund', paid);
    expect(rest.code, rest.err).toBe(0);
    expect(rest.out).toMatch(new RegExp(`^refund [0-9a-f-]{36} of transaction ${paid}: ${amount - 50} [A-Z]{3} SUCCESS\\n$`));
    const none = await cli('refund', paid);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/^payment-sandbox refund: refused \(\d{3}\): .+/);
  });

  it('an unreachable sandbox is exit 2 with its origin named', async () => {
    const closed = await freePort();
    const down = await runMain(['settle', 'tx_1', '--sandbox-url', `http://127.0.0.1:${closed}`]);
    expect(down.code).toBe(2);
    expect(down.err).toContain(`cannot reach the sandbox at http://127.0.0.1:${closed}`);
  });

  it('the admin token of the environment is sent: without it a guarded sandbox refuses', async () => {
    const server = await per.serve({ adminToken: 'sesame-open-up' });
    const refused = await runMain(['deliveries'], { PAYMENT_SANDBOX_URL: server.url });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^payment-sandbox deliveries: refused \(401\)/);
    const allowed = await runMain(['deliveries'], { PAYMENT_SANDBOX_URL: server.url, PAYMENT_SANDBOX_ADMIN_TOKEN: 'sesame-open-up' });
    expect(allowed).toEqual({ code: 0, out: 'no deliveries\n', err: '' });
  });
});

describe('trigger and deliveries in process', () => {
  it('trigger prints each id it made, and deliveries lists what the sandbox sent, newest first', async () => {
    const { cli, receiver } = await setup();
    const succeeded = await cli('trigger', 'payment.succeeded');
    expect(succeeded.code, succeeded.err).toBe(0);
    expect(succeeded.out).toMatch(
      new RegExp(
        `^payment.succeeded: SUCCEEDED \\(account ${DIRECT.account_id}\\)\\n {2}transaction {2}[0-9a-f-]{36}\\n {2}delivery {5}\\S+\\n$`,
      ),
    );
    const failed = await cli('trigger', 'payment.failed', '--format', 'json', '--webhook-url', receiver.url);
    expect(failed.code, failed.err).toBe(0);
    expect(JSON.parse(failed.out)).toMatchObject({ event: 'payment.failed', status: 'FAILED', account_id: DIRECT.account_id });
    const refunded = await cli('trigger', 'refund.succeeded', '--format', 'json');
    expect(refunded.code, refunded.err).toBe(0);
    const refund = JSON.parse(refunded.out) as { refund_id: string; transaction_id: string; delivery_ids: string[] };
    expect(refund.refund_id).toEqual(expect.any(String));
    await receiver.waitFor(4);

    const listed = await cli('deliveries', '--limit', '2', '--account', DIRECT.account_id, '--format', 'json');
    expect(listed.code).toBe(0);
    const deliveries = JSON.parse(listed.out) as { id: string; merchant_account_id: string }[];
    expect(deliveries).toHaveLength(2);
    expect(refund.delivery_ids).toEqual(expect.arrayContaining([deliveries[0]!.id]));
    const text = await cli('deliveries');
    const lines = text.out.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^${deliveries[0]!.id}  \\S+  refund \\S+  \\w+ +attempts=\\d+  last=\\S+  ${receiver.url}$`));
    const none = await cli('deliveries', '--account', 'acc_nobody');
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/^payment-sandbox deliveries: /);
  });

  it('trigger in a checkout-mode account, and the subscription events on an account of its own', async () => {
    const { cli, server } = await setup();
    const checkout = await cli('trigger', 'payment.succeeded', '--account', CHECKOUT.account_id);
    expect(checkout.code, checkout.err).toBe(0);
    expect(checkout.out).toMatch(new RegExp(`^payment.succeeded: SUCCEEDED \\(account ${CHECKOUT.account_id}\\)\\n`));
    const refused = await cli('trigger', 'subscription.renewed', '--account', CHECKOUT.account_id);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('needs a direct-mode account');

    const created = await fetch(`${server.url}/_sandbox/accounts`, {
      method: 'POST',
      body: '{"mode":"direct"}',
      headers: { 'content-type': 'application/json' },
    });
    const own = ((await created.json()) as { account_id: string }).account_id;
    const renewed = await cli('trigger', 'subscription.renewed', '--account', own, '--format', 'json');
    expect(renewed.code, renewed.err).toBe(0);
    expect(JSON.parse(renewed.out)).toMatchObject({ account_id: own, status: 'active', subscription_id: expect.any(String) });
    const pastDue = await cli('trigger', 'subscription.past_due', '--account', own);
    expect(pastDue.code, pastDue.err).toBe(0);
    expect(pastDue.out).toMatch(/^subscription.past_due: past_due .+\n {2}subscription [0-9a-f-]{36}\n {2}charge {7}[0-9a-f-]{36}\n/);
    const clock = (await (await fetch(`${server.url}/_sandbox/accounts/${own}/clock`)).json()) as { offset_seconds: number };
    expect(clock.offset_seconds).toBeGreaterThanOrEqual(2 * 86_400);
    const nobody = await cli('trigger', 'payment.succeeded', '--account', 'acc_nobody');
    expect(nobody.code).toBe(1);
    expect(nobody.err).toContain('no account acc_nobody');
  });
});

describe('tail in process', () => {
  /** Runs `tail` with `args` until `stop` aborts; its lines as they come, and its exit code. */
  function tailOf(origin: string, args: string[]) {
    const lines: string[] = [];
    let err = '';
    const parsed = parseVerb('tail', [...args, '--sandbox-url', origin], {}) as ParsedVerb;
    const stop = new AbortController();
    const exit = runParsedVerb(
      parsed,
      { out: (t) => void lines.push(...t.split('\n').filter(Boolean)), err: (t) => void (err += t) },
      stop.signal,
    );
    return { lines, err: () => err, stop, exit };
  }

  it('prints one text line per /v4 request and webhook attempt of the account; aborting ends it with 0', async () => {
    const { server, pending, receiver, cli } = await setup();
    const tail = tailOf(server.url, ['--account', DIRECT.account_id]);
    await until('tail is ready', () => (tail.err().includes('tailing') ? true : undefined), 10_000);
    expect(tail.err()).toBe(`tailing ${server.url} (account ${DIRECT.account_id}); Ctrl-C to stop\n`);
    const id = await pending('in-process-tail');
    await fetch(`${server.url}/v4/transactions/${id}`, { headers: headers(CHECKOUT) }); // another account's request
    expect((await cli('settle', id)).code).toBe(0);
    await receiver.waitFor(1);
    await until('the webhook line', () => (tail.lines.some((l) => l.includes(' webhook ')) ? true : undefined), 10_000);
    tail.stop.abort();
    expect(await tail.exit).toBe(0);
    expect(tail.lines).toEqual([
      expect.stringMatching(new RegExp(`^\\S+ POST /v4/transactions 201 [\\d.]+ms {2}\\[${DIRECT.account_id}\\]$`)),
      expect.stringMatching(
        new RegExp(
          `^\\S+ webhook payment ${id} -> ${receiver.url} delivered 200 \\(attempt 1\\) delivery \\S+ {2}\\[${DIRECT.account_id}\\]$`,
        ),
      ),
    ]);
  });

  it('a failed attempt prints its answer and when it is retried; JSON lines carry every field', async () => {
    const { server, pending, receiver, cli } = await setup();
    receiver.respond = () => ({ status: 500, body: 'down' });
    const tail = tailOf(server.url, ['--format', 'json']);
    await until('tail is ready', () => (tail.err().includes('tailing') ? true : undefined), 10_000);
    expect(tail.err()).toBe(`tailing ${server.url}; Ctrl-C to stop\n`);
    const id = await pending('in-process-tail-retry');
    expect((await cli('settle', id)).code).toBe(0);
    await until('the webhook line', () => (tail.lines.some((l) => l.includes('"webhook"')) ? true : undefined), 10_000);
    tail.stop.abort();
    expect(await tail.exit).toBe(0);
    const webhook = tail.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.type === 'webhook');
    expect(webhook).toMatchObject({
      kind: 'payment',
      resource_id: id,
      ok: false,
      status: 500,
      number: 1,
      next_attempt_at: expect.any(String),
    });
  });

  it('an account the sandbox does not hold is refused (exit 1)', async () => {
    const { server } = await setup();
    const nobody = await runMain(['tail', '--account', 'acc_nobody', '--sandbox-url', server.url]);
    expect(nobody.code).toBe(1);
    expect(nobody.err).toContain('acc_nobody');
  });

  it('a sandbox back without the account tail follows ends it with 1', async () => {
    const first = await per.serve();
    const relay = await startRelay(first.port);
    per.defer(() => relay.close());
    const created = await fetch(`${first.url}/_sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'direct' }),
    });
    const account = ((await created.json()) as { account_id: string }).account_id;
    const tail = tailOf(relay.url, ['--account', account]);
    await until('tail is ready', () => (tail.err().includes('tailing') ? true : undefined), 10_000);
    await first.stop();
    relay.to((await per.serve()).port); // in memory: the account is gone
    expect(await tail.exit).toBe(1);
    expect(tail.err()).toContain(account);
  });

  it('a sandbox that stops: tail says so and follows it again once it is back; one back refusing it ends it with 1', async () => {
    const first = await per.serve();
    const relay = await startRelay(first.port); // one address, as a container's published port
    per.defer(() => relay.close());
    const tail = tailOf(relay.url, []);
    await until('tail is ready', () => (tail.err().includes('tailing') ? true : undefined), 10_000);
    await first.stop();
    await until('tail to say so', () => (tail.err().includes('ended the event stream') ? true : undefined), 10_000);
    const second = await per.serve();
    relay.to(second.port);
    await until('tail to follow again', () => (tail.err().includes('again\n') ? true : undefined), 10_000);
    expect(tail.err()).toBe(
      `tailing ${relay.url}; Ctrl-C to stop\n` +
        `payment-sandbox tail: the sandbox at ${relay.url} ended the event stream; following it again once it is back (Ctrl-C to stop)\n` +
        `tailing ${relay.url} again\n`,
    );
    const created = await fetch(`${second.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(DIRECT),
      body: JSON.stringify(directPayment()),
    });
    expect(created.status).toBe(201);
    await until(
      'the line of the create',
      () => (tail.lines.some((l) => l.includes('POST /v4/transactions 201')) ? true : undefined),
      10_000,
    );

    await second.stop();
    relay.to((await per.serve({ adminToken: 'a-token-tail-lacks' })).port);
    expect(await tail.exit).toBe(1);
    expect(tail.err()).toMatch(/payment-sandbox tail: .*401/);
  });
});
