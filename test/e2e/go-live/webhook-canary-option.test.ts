/**
 * The webhook canary over real sockets, with the one verifying receiver as the shop's handler:
 * a shop that never verifies signatures (and never asks for the `bad_signature` fault) is told
 * so by the report; a shop that verifies gets no finding and `webhook_bad_signature` seen. The
 * canary is marked in the delivery log, sent once per URL, never retried, and real deliveries
 * arrive as they would without it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { directPayment } from '../../support/app.js';
import { control, createAccount, type CreatedAccount } from '../../support/go-live-journeys.js';
import { ACK, startReceiver, type Receiver } from '../../support/receiver.js';
import { until } from '../../support/until.js';

/** Waits until no delivery of `account` is pending. */
const settled = (url: string, account: CreatedAccount): Promise<true> =>
  until(
    'deliveries to settle',
    async () => ((await deliveries(url, account)).every((d) => d.status !== 'pending') ? true : undefined),
    20_000,
  );

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(webhookCanary: boolean): Promise<{ sandbox: RunningSandbox; receiver: Receiver }> {
  const receiver = await startReceiver();
  const sandbox = await startSandbox({ quiet: true, ticker: false, notificationUrl: receiver.url, webhookCanary });
  cleanup.push(
    () => receiver.close(),
    () => sandbox.stop(),
  );
  return { sandbox, receiver };
}

/** A card payment that succeeds at once (its webhook goes to the sandbox's --notification-url), under its own key. */
async function pay(url: string, account: CreatedAccount, order: string): Promise<string> {
  const res = await fetch(`${url}/v4/transactions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${account.api_key}`,
      'x-merchant-account-id': account.account_id,
      'content-type': 'application/json',
      'idempotency-key': order,
    },
    body: JSON.stringify(
      directPayment({
        external_identifier: order,
        payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/40', security_code: '123' },
      }),
    ),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

interface DeliveryRow {
  id: string;
  resource_id: string;
  fault: string | null;
  canary: boolean;
  status: string;
  attempts_count: number;
}
const deliveries = async (url: string, account: CreatedAccount): Promise<DeliveryRow[]> =>
  (await control(url, 'GET', `/deliveries?account_id=${account.account_id}`)).items as unknown as DeliveryRow[];

describe('the webhook canary', () => {
  it('--webhook-canary: a shop that never verifies signatures gets webhook_signature_not_verified', async () => {
    const { sandbox, receiver } = await setup(true);
    const shop = await createAccount(sandbox.url, 'direct', 'trusting-shop');
    receiver.respond = () => ACK; // acknowledges everything, signed or not
    const tx = await pay(sandbox.url, shop, 'order-1');
    const [first, copy] = await receiver.waitFor(2);
    expect(first!.verified).toBe(true);
    expect(copy!.verified).toBe(false);
    expect(copy!.raw).toBe(first!.raw);
    await settled(sandbox.url, shop);
    const report = await sandbox.report({ accountId: shop.account_id });
    const finding = report.findings.find((f) => f.code === 'webhook_signature_not_verified');
    expect(finding?.evidence.transaction_ids).toEqual([tx]);
    expect(report.findings.map((f) => f.code)).toEqual(['webhook_signature_not_verified']);
  });

  it('per account: a shop that verifies gets no finding, webhook_bad_signature seen, one canary per URL, not retried', async () => {
    const { sandbox, receiver } = await setup(false);
    const shop = await createAccount(sandbox.url, 'direct', 'careful-shop');
    const settings = await control(sandbox.url, 'PATCH', `/accounts/${shop.account_id}`, { webhook_canary: true });
    expect(settings).toMatchObject({ webhook_canary: true, own: { webhook_canary: true } });
    receiver.respond = (_n, hook) => (hook.verified ? ACK : { status: 401, body: '{"code":"401","message":"invalid signature"}' });

    const first = await pay(sandbox.url, shop, 'order-1');
    await receiver.waitFor(2);
    const second = await pay(sandbox.url, shop, 'order-2');
    await receiver.waitFor(3);
    await settled(sandbox.url, shop);
    // Advancing the clock past every retry sends nothing more: the refused canary is not retried
    // (the advance answers once every webhook it made due had its attempt).
    await sandbox.advanceClock(3600);
    expect(receiver.received.map((h) => h.verified)).toEqual([true, false, true]);

    const log = await deliveries(sandbox.url, shop);
    const canaries = log.filter((d) => d.canary);
    expect(canaries).toMatchObject([{ resource_id: first, fault: 'bad_signature', status: 'failed', attempts_count: 1 }]);
    expect(log.filter((d) => !d.canary).map((d) => [d.resource_id, d.status])).toEqual(
      expect.arrayContaining([
        [first, 'delivered'],
        [second, 'delivered'],
      ]),
    );

    const report = await sandbox.report({ accountId: shop.account_id });
    expect(report.findings).toEqual([]);
    expect(report.coverage.find((c) => c.scenario === 'webhook_bad_signature')?.seen).toBe(true);

    // Another account of the same sandbox has no canary.
    const other = await createAccount(sandbox.url, 'direct', 'other-shop');
    await pay(sandbox.url, other, 'order-3');
    await receiver.waitFor(4);
    await settled(sandbox.url, other);
    expect((await deliveries(sandbox.url, other)).map((d) => d.canary)).toEqual([false]);
  });
});
