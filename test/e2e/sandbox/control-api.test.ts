/**
 * The control API over a real socket, with a real receiver: a delivery's state goes
 * retrying -> delivered and carries the merchant's reference. What the control API says of
 * transactions, subscriptions, the calendar and its schemas is checked through the app in
 * api/sandbox/what-can-be-done-now.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT, body, directPayment, headers, startReceiver, type Receiver } from '../../support/app.js';

interface ControlTx {
  id: string;
  status: string;
  allowed_actions: string[];
}

describe('control API over a real socket', () => {
  let server: RunningServer | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await server?.stop();
    await receiver?.close();
    server = receiver = undefined;
  });

  it("a delivery's state goes retrying -> delivered and carries the merchant's reference; the transaction's actions follow", async () => {
    server = await startServer({ port: 0, host: '127.0.0.1' });
    receiver = await startReceiver();
    receiver.respond = (n) =>
      n === 1 ? { status: 503, body: 'busy' } : { status: 200, body: JSON.stringify({ code: '200', message: 'SUCCESS' }) };
    const api = (path: string, init: RequestInit = {}) => fetch(`${server!.url}${path}`, init);
    const created = await api('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ external_identifier: 'order-socket-1', notification_url: receiver.url })),
    });
    const tx = await body<ControlTx>(created);
    const settled = await body<ControlTx>(await api(`/_sandbox/transactions/${tx.id}/settle`, { method: 'POST' }));
    expect(settled.allowed_actions).toEqual(['refund']);
    await receiver.waitFor(1);

    type Delivery = { id: string; state: string; status: string; reference: string | null; attempts_count: number };
    const deliveries = async () =>
      (await body<{ items: Delivery[] }>(await api(`/_sandbox/deliveries?account_id=${DIRECT.account_id}`))).items;
    await expect.poll(async () => (await deliveries())[0]?.state, { timeout: 5000 }).toBe('retrying');
    const [retrying] = await deliveries();
    expect(retrying).toMatchObject({ status: 'pending', reference: 'order-socket-1', attempts_count: 1 });

    const resent = await body<Delivery>(await api(`/_sandbox/deliveries/${retrying!.id}/resend`, { method: 'POST' }));
    expect(['queued', 'retrying', 'delivered']).toContain(resent.state);
    await receiver.waitFor(2);
    await expect.poll(async () => (await deliveries())[0]?.state, { timeout: 5000 }).toBe('delivered');
  });
});
