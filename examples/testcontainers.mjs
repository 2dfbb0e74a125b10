// payment-sandbox in a merchant's Node tests with Testcontainers (`npm i -D testcontainers`).
// The image: `docker build -t payment-sandbox .` in the sandbox's repository (or your
// registry's copy). Webhooks reach the app under test on the host through
// host.testcontainers.internal; checkout links (`payment_url`) open from the host because the
// sandbox's --public-url is the port the container is published on. The start waits for
// /_sandbox/health with a bound, and fails at once if the container exits.
// exposeHostPorts runs Testcontainers' helper image testcontainers/sshd; where no registry serves
// it (podman offline), build examples/testcontainers-sshd and set SSHD_CONTAINER_IMAGE (docs/ci.md).
import { createServer } from 'node:net';
import { GenericContainer, TestContainers, Wait } from 'testcontainers';

/** A port nobody on this machine listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the sandbox; webhooks go to http://host.testcontainers.internal:<appPort>/webhooks,
 * that is your app's handler on this machine (listening on 0.0.0.0 or 127.0.0.1, port appPort).
 * Returns the container (await container.stop() when done), the sandbox's URL and its API URL.
 */
export async function startPaymentSandbox({ appPort = 3000, image = 'payment-sandbox', startupTimeoutMs = 60_000 } = {}) {
  await TestContainers.exposeHostPorts(appPort);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const container = await new GenericContainer(image)
    .withExposedPorts({ container: 4010, host: port })
    .withCommand(['--public-url', url, '--notification-url', `http://host.testcontainers.internal:${appPort}/webhooks`])
    .withWaitStrategy(Wait.forHttp('/_sandbox/health', 4010).forStatusCode(200))
    .withStartupTimeout(startupTimeoutMs)
    .start();
  return { container, url, apiUrl: `${url}/v4` };
}
