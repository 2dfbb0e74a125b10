/**
 * `payment-sandbox/testcontainers` against the real image (`npm run test:image`), with Docker
 * where an engine answers, else through podman's Docker-compatible API (`podman system service`
 * on a socket of its own, `DOCKER_HOST` pointing at it, as docs/ci.md says).
 *
 * - The CI guide's Node recipe (`<!-- testcontainers:node -->`), run as printed: the module
 *   starts the image with the shipped shop fixtures (an option passed as its variable), waits on
 *   `/_sandbox/health`, and serves the seeded state; `settle` and `report` work; stopped, the
 *   container is gone.
 * - `examples/testcontainers.mjs`: `forwardWebhooksTo` delivers a settled checkout payment's
 *   signed webhook to a receiver on 127.0.0.1 of the host, which the container cannot reach,
 *   and the sandbox records the attempt as delivered; the payment link opens from the host.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentSandboxContainer, type StartedPaymentSandboxContainer } from '../../src/testcontainers.js';
import { directPayment, headers, startReceiver } from '../support/app.js';
import { prepareImage } from '../support/container-image.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const engine = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0 ? 'docker' : 'podman';
const buildArgs = engine === 'podman' ? (process.env.CONTAINER_BUILD_ARGS ?? '--format docker').split(/\s+/).filter(Boolean) : [];
const tag = 'payment-sandbox:testcontainers-check';

/** The guide's Node recipe, exactly as printed between its markers. */
function guideRecipe(): string {
  const guide = readFileSync(join(root, 'docs', 'ci.md'), 'utf8');
  const block = /<!-- testcontainers:node -->\s*```js\n([\s\S]*?)```/.exec(guide);
  if (!block) throw new Error('docs/ci.md has no <!-- testcontainers:node --> block');
  return block[1]!;
}

type Start = () => Promise<StartedPaymentSandboxContainer>;

/** The recipe's `startPaymentSandbox`, with the module as built here and the image built here. */
function recipe(): Start {
  const code = guideRecipe();
  expect(code).toMatch(/^import \{ PaymentSandboxContainer \} from 'payment-sandbox\/testcontainers';$/m);
  const body = code
    .replace(/^import .*$/m, '')
    .replace(/^export /m, '')
    .replace("new PaymentSandboxContainer('payment-sandbox')", `new PaymentSandboxContainer(${JSON.stringify(tag)})`);
  expect(body).toContain(JSON.stringify(tag));
  return new Function('PaymentSandboxContainer', `${body}\nreturn startPaymentSandbox;`)(PaymentSandboxContainer) as Start;
}

let service: ChildProcess | undefined;
let socketDir: string | undefined;

beforeAll(async () => {
  prepareImage(engine, buildArgs, tag, root);
  if (engine === 'podman') {
    // podman's Docker-compatible API on a socket of this test's own; Testcontainers finds it by DOCKER_HOST.
    socketDir = mkdtempSync(join(tmpdir(), 'podman-api-'));
    const socket = join(socketDir, 'podman.sock');
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while (!existsSync(socket)) {
      if (Date.now() > deadline) throw new Error('podman system service did not open its socket');
      await new Promise((r) => setTimeout(r, 100));
    }
    process.env.DOCKER_HOST = `unix://${socket}`;
    // Ryuk (the reaper) is an image from Docker Hub; the test stops its container itself.
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    // podman publishes on IPv4 only; `localhost` may resolve to ::1 first.
    process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
  }
}, 960_000);

afterAll(() => {
  service?.kill('SIGTERM');
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  spawnSync(engine, ['rmi', '-f', tag], { stdio: 'ignore', timeout: 60_000 });
});

const gone = (id: string): boolean =>
  spawnSync(engine, ['ps', '-a', '-q', '--filter', `id=${id}`], { encoding: 'utf8' }).stdout.trim() === '';

describe(`the CI guide's Testcontainers recipe for Node (${engine})`, () => {
  it('starts the image with its options, waits on /_sandbox/health, serves the seeded state; settle and report work', async () => {
    const sandbox = await recipe()();
    const id = sandbox.getId();
    try {
      expect(sandbox.url).toMatch(/^http:\/\/[^:]+:\d+$/);
      expect(sandbox.apiUrl).toBe(`${sandbox.url}/v4`);
      expect((await fetch(`${sandbox.url}/_sandbox/health`)).status).toBe(200);
      const list = (await (
        await fetch(`${sandbox.apiUrl}/transactions?limit=100`, { headers: sandbox.credentials.direct.headers })
      ).json()) as {
        items: { id: string; external_identifier: string; status: string; refunded_amount: number }[];
      };
      // the fixtures option reached the container as PAYMENT_SANDBOX_FIXTURES
      expect(list.items.find((t) => t.external_identifier === 'order-1002')).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 500 });
      const created = await fetch(`${sandbox.apiUrl}/transactions`, {
        method: 'POST',
        headers: { ...sandbox.credentials.direct.headers, 'content-type': 'application/json' },
        body: JSON.stringify(directPayment({ external_identifier: 'tc-recipe-1' })),
      });
      expect(created.status).toBe(201);
      const pending = (await created.json()) as { id: string; status: string };
      expect(pending.status).toBe('PENDING');
      expect(await sandbox.settle(pending.id)).toMatchObject({ id: pending.id, status: 'SUCCEEDED' });
      const report = await sandbox.report({ requireCoverage: ['webhook_retry'] });
      expect(report.findings.map((f) => f.code)).toContain('coverage_missing');
    } finally {
      await sandbox.stop();
    }
    expect(gone(id)).toBe(true);
  });
});

describe(`examples/testcontainers.mjs (${engine})`, () => {
  it("forwardWebhooksTo delivers a settled payment's signed webhook to the host's 127.0.0.1, recorded as delivered", async () => {
    const receiver = await startReceiver();
    const appPort = Number(new URL(receiver.url).port);
    const example = (await import(join(root, 'examples/testcontainers.mjs'))) as {
      startPaymentSandbox: (o: { appPort: number; image: string }) => Promise<StartedPaymentSandboxContainer>;
    };
    const sandbox = await example.startPaymentSandbox({ appPort, image: tag });
    const id = sandbox.getId();
    try {
      const created = await fetch(`${sandbox.apiUrl}/transactions`, {
        method: 'POST',
        headers: { ...headers(sandbox.credentials.checkout), 'idempotency-key': `testcontainers-${process.pid}` },
        body: JSON.stringify({
          amount: 2500,
          currency: 'USD',
          description: 'Order 1',
          external_identifier: 'tc-1',
          return_url: 'http://127.0.0.1:3000/thanks',
        }),
      });
      expect(created.status).toBe(201);
      const tx = (await created.json()) as { id: string; payment_url: string };
      expect(tx.payment_url).toBe(`${sandbox.url}/pay/${tx.id}`);
      const page = await fetch(tx.payment_url);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/25\.00/);

      await sandbox.settle(tx.id);
      const webhook = await receiver.waitForMatch((h) => h.raw.includes(tx.id), 30_000);
      expect(webhook.path).toBe('/webhooks');
      expect(webhook.verified, 'signed with the published key, bytes intact').toBe(true);
      expect(webhook.body).toMatchObject({ ll_transaction_id: tx.id, merchant_transaction_id: 'tc-1' });
      const deadline = Date.now() + 10_000;
      let delivery = (await sandbox.deliveries()).find((d) => d.resource_id === tx.id);
      while (delivery?.status !== 'delivered' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        delivery = (await sandbox.deliveries()).find((d) => d.resource_id === tx.id);
      }
      expect(delivery?.status).toBe('delivered');
    } finally {
      await sandbox.stop();
      await receiver.close();
    }
    expect(gone(id)).toBe(true);
  });
});
