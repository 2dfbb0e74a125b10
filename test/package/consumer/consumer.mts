// Type-checked against the installed package's .d.ts (exports map, `types`), never run.
import { startSandbox, type Delivery, type RunningSandbox } from 'payment-sandbox';
import { verifyWebhook } from 'payment-sandbox/webhooks';

export async function typed(): Promise<boolean> {
  const sandbox: RunningSandbox = await startSandbox({ port: 0, webhookTimezone: 'UTC', notificationUrl: 'http://127.0.0.1:3000/webhooks' });
  const delivery: Delivery = await sandbox.waitForDelivery((d) => d.kind === 'payment', 5000);
  await sandbox.stop();
  return verifyWebhook({ body: delivery.body, signature: 'x', publicKey: sandbox.credentials.webhookPublicKeyPem });
}

// @ts-expect-error: not an option
void startSandbox({ prot: 4010 });
