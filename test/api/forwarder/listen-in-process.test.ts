/**
 * `payment-sandbox listen` through the CLI's `main` in this process, against a sandbox and a
 * merchant's handler on loopback: the line it prints when listening and per forwarded delivery,
 * what the sandbox recorded of the attempt, a stop with 0, a sandbox that restarts, and the
 * refusals (exit 1 and 2).
 * The built CLI as a process: e2e/forwarder.
 */
import { describe, expect, it } from 'vitest';
import { DIRECT, directPayment, headers } from '../../support/app.js';
import { runMain, startMain } from '../../support/in-process-cli.js';
import { freePort } from '../../support/ports.js';
import { startRelay } from '../../support/relay.js';
import { perTest } from '../../support/servers.js';
import { until } from '../../support/until.js';

const per = perTest();

describe('listen in process', () => {
  it('forwards a delivery the sandbox cannot reach, prints its line, records the attempt, and stops with 0', async () => {
    const server = await per.serve();
    const receiver = await per.receive();
    const listen = await startMain(['listen', '--forward-to', receiver.url, '--account', DIRECT.account_id], {
      PAYMENT_SANDBOX_URL: server.url,
    });
    const unreachable = `http://127.0.0.1:${await freePort()}/webhooks`;
    const created = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(DIRECT),
      body: JSON.stringify(directPayment({ notification_url: unreachable })),
    });
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' })).status).toBe(200);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
    const delivery = await until('the attempt recorded', async () => {
      const page = (await (await fetch(`${server.url}/_sandbox/deliveries`)).json()) as {
        items: { resource_id: string; state: string; attempts: { ok: boolean; response_status: number | null }[] }[];
      };
      return page.items.find((d) => d.resource_id === id && d.attempts.length > 0);
    });
    expect(delivery).toMatchObject({ state: 'delivered', attempts: [{ ok: true, response_status: 200 }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { code, out } = await listen.stop();
    expect(code).toBe(0);
    expect(out).toContain(
      `listening to ${server.url} for account ${DIRECT.account_id}; forwarding webhooks to ${receiver.url} (Ctrl-C to stop)\n`,
    );
    expect(out).toMatch(new RegExp(`payment/SUCCEEDED {2}${id} {2}-> 200 {2}\\d+ ms {2}\\[\\S+\\]\\n`));
  });

  it('a sandbox that stops and starts again: it says so, connects again and forwards; a stop ends it with 0', async () => {
    const first = await per.serve();
    const relay = await startRelay(first.port); // one address, as a container's published port
    per.defer(() => relay.close());
    const receiver = await per.receive();
    const listen = await startMain(['listen', '--forward-to', receiver.url, '--sandbox-url', relay.url]);
    await first.stop();
    const second = await per.serve();
    relay.to(second.port);
    const created = await fetch(`${second.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(DIRECT),
      // No URL: only a listener can carry its webhook, which goes as soon as the listener is back.
      body: JSON.stringify(directPayment()),
    });
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${second.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' })).status).toBe(200);
    const [hook] = await receiver.waitFor(1, 15_000);
    expect(hook!.verified).toBe(true);
    const { code, out, err } = await listen.stop();
    expect(code).toBe(0);
    expect(out).toContain(`listening to ${relay.url} for every account;`);
    expect(err).toBe(
      `payment-sandbox listen: the sandbox at ${relay.url} closed the listener's stream; connecting again once it is back (Ctrl-C to stop)\n`,
    );
    expect(out).toContain(`listening again to ${relay.url} for every account\n`);
  });

  it('an invalid --forward-to and an unreachable sandbox are exit 2; a guarded sandbox without its token is exit 1', async () => {
    const server = await per.serve({ adminToken: 'listen-admin-token' });
    const ftp = await runMain(['listen', '--forward-to', 'ftp://x/hooks', '--sandbox-url', server.url]);
    expect(ftp).toMatchObject({ code: 2, err: expect.stringContaining('invalid --forward-to "ftp://x/hooks": must be an http(s) URL') });
    const closed = await freePort();
    const down = await runMain(['listen', '--forward-to', 'http://127.0.0.1:1/hooks', '--sandbox-url', `http://127.0.0.1:${closed}`]);
    expect(down.code).toBe(2);
    expect(down.err).toContain(`http://127.0.0.1:${closed}`);
    const refused = await runMain(['listen', '--forward-to', 'http://127.0.0.1:1/hooks', '--sandbox-url', server.url]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^payment-sandbox listen: .*401/);
    expect((await runMain(['listen'])).code).toBe(2);
  });
});
