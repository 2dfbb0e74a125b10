/**
 * `metadata` over a real socket: echoed exactly as sent (security-code-like keys with their
 * values) in the create's answer and in the event-style webhook the merchant receives; a card
 * number in a value is masked in both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { directPayment, headers, startReceiver, type Receiver } from '../../../support/app.js';

let server: RunningServer;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServer({ port: 0, host: '127.0.0.1', ticker: false, webhookFormat: 'event', notificationUrl: receiver.url });
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe('metadata over HTTP', () => {
  it('is echoed exactly as sent in the answer and in the webhook, a card number in a value masked', async () => {
    const metadata = { cid: '8113', card_code: '7264', csc: '9157', order_ref: 'A-1001', note: 'card 4242,4242,4242,4242' };
    const res = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ external_identifier: 'meta-echo-1', metadata })),
    });
    expect(res.status).toBe(201);
    const tx = (await res.json()) as { id: string; metadata: unknown };
    const echoed = { ...metadata, note: 'card •••• 4242' };
    expect(tx.metadata).toEqual(echoed);
    const settled = await fetch(`${server.url}/_sandbox/transactions/${tx.id}/settle`, { method: 'POST' });
    expect(settled.status).toBe(200);
    const hook = await receiver.waitForMatch(
      (h) => (h.body as { data?: { transaction?: { id?: string } } }).data?.transaction?.id === tx.id,
    );
    expect(hook.verified).toBe(true);
    expect((hook.body as { data: { transaction: { metadata: unknown } } }).data.transaction.metadata).toEqual(echoed);
  });
});
