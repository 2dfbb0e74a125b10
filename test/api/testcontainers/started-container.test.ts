/**
 * `StartedPaymentSandboxContainer`, the handle `start()` resolves with, over a sandbox on
 * loopback in place of the container (no container engine here): settle, fail, refund,
 * deliveries and the go-live report through the control API, the webhook listener that
 * forwards what the sandbox cannot reach, and `stop()` closing that listener before the
 * container. The options before a start: unit/testcontainers; the image itself: e2e/image.
 */
import type { StartedTestContainer, StoppedTestContainer } from 'testcontainers';
import { describe, expect, it } from 'vitest';
import { controlClient, readCredentials } from '../../../src/control-client.js';
import { StartedPaymentSandboxContainer } from '../../../src/testcontainers.js';
import { DIRECT, directPayment, headers } from '../../support/app.js';
import { freePort } from '../../support/ports.js';
import { perTest } from '../../support/servers.js';
import { until } from '../../support/until.js';

const per = perTest();

/** The handle over a sandbox on loopback; `stopped` counts the container's stops. */
async function handle(adminToken?: string) {
  const server = await per.serve(adminToken === undefined ? {} : { adminToken });
  const call = controlClient(server.url, adminToken);
  const stops: string[] = [];
  const container = {
    stop: async () => {
      stops.push('container');
      return {} as StoppedTestContainer;
    },
  } as Pick<StartedTestContainer, 'stop'> as StartedTestContainer;
  const started = new StartedPaymentSandboxContainer(container, server.url, await readCredentials(call), call, adminToken);
  const pending = async (notificationUrl?: string): Promise<string> => {
    const res = await fetch(`${started.apiUrl}/transactions`, {
      method: 'POST',
      headers: headers(DIRECT),
      body: JSON.stringify(directPayment(notificationUrl === undefined ? {} : { notification_url: notificationUrl })),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  return { server, started, stops, pending };
}

describe('StartedPaymentSandboxContainer', () => {
  it('settles, fails and refunds through the control API; lists the deliveries and reads the report', async () => {
    const { started, pending } = await handle();
    expect(started.credentials.direct.account_id).toBe(DIRECT.account_id);
    const paid = await pending();
    expect(await started.settle(paid)).toMatchObject({ id: paid, status: 'SUCCEEDED' });
    expect(await started.refund(paid, 100)).toMatchObject({ transaction_id: paid, amount: 100 });
    expect(await started.refund(paid)).toMatchObject({ transaction_id: paid });
    const declined = await pending();
    expect(await started.fail(declined)).toMatchObject({ id: declined, status: 'FAILED' });
    const deliveries = await started.deliveries();
    expect(deliveries.map((d) => d.kind).sort()).toEqual(['payment', 'payment', 'refund', 'refund']);
    expect(new Set(deliveries.map((d) => d.resource_id))).toContain(declined);
    const report = await started.report({ accountId: DIRECT.account_id, requireCoverage: ['payment_succeeded', 'webhook_retry'] });
    expect(report.findings.filter((f) => f.code === 'coverage_missing').map((f) => f.scenario)).toEqual(['webhook_retry']);
    await expect(started.settle(declined)).rejects.toThrow(/409/);
  });

  it('forwards the webhooks the sandbox cannot reach to a port of this machine; stop() closes the listener, then the container', async () => {
    const { started, stops, pending } = await handle('container-admin-token');
    const receiver = await per.receive();
    const port = Number(new URL(receiver.url).port);
    const listener = await started.forwardWebhooksTo(port, { accountId: DIRECT.account_id });
    const paid = await pending(`http://127.0.0.1:${await freePort()}/webhooks`);
    await started.settle(paid);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.path).toBe('/webhooks');
    expect(hook!.verified).toBe(true);
    const delivery = await until('the attempt recorded', async () =>
      (await started.deliveries()).find((d) => d.resource_id === paid && d.attempts.length > 0),
    );
    expect(delivery.attempts[0]).toMatchObject({ ok: true, response_status: 200 });

    const second = await started.forwardWebhooksTo(`${receiver.origin}/other`);
    await second.stop(); // stopped by hand: stop() of the container has nothing left to close of it
    let closed = false;
    void listener.closed.finally(() => (closed = true));
    await started.stop();
    expect(stops).toEqual(['container']);
    await until('the listener closed', () => (closed ? true : undefined), 5_000);
  });
});
