// payment-sandbox in a merchant's Node tests with Testcontainers:
//   npm install --save-dev payment-sandbox testcontainers
// The image: `docker build -t payment-sandbox .` in the sandbox's repository (or your registry's
// copy). `start()` maps port 4010 to a free port of this machine and waits until
// GET /_sandbox/health answers 200 (with any engine: Docker or podman). Webhooks reach your
// handler on this machine through the listener `forwardWebhooksTo` runs in this process: no
// host networking, no helper container, and your app may listen on 127.0.0.1. Checkout links
// (`payment_url`) open from this machine: they carry the mapped port.
import { PaymentSandboxContainer } from 'payment-sandbox/testcontainers';

/**
 * Starts the sandbox with the shipped shop fixtures; its webhooks go to
 * http://127.0.0.1:<appPort>/webhooks, your app's handler. Resolves with the started sandbox:
 * `url`, `apiUrl`, `credentials` (`direct`, `checkout`, each with ready `headers`),
 * `settle(id)`, `fail(id)`, `refund(id, amount?)`, `deliveries()`, `report()`; `await
 * sandbox.stop()` when done (it stops the listener too).
 */
export async function startPaymentSandbox({ appPort = 3000, image = 'payment-sandbox' } = {}) {
  const sandbox = await new PaymentSandboxContainer(image).withOptions({ fixtures: ['/app/fixtures/shop.json'] }).start();
  await sandbox.forwardWebhooksTo(appPort);
  return sandbox;
}
