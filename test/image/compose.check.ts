/**
 * compose.yaml as a merchant runs it (`npm run test:image`): `docker compose` where Docker
 * answers, else `podman-compose` (Debian's package; scripts/container-engine.sh installs it),
 * with one more file that adds the merchant's app as the service `app`: a webhook receiver on
 * 0.0.0.0:3000 that records each POST and answers the spec's acknowledgement. compose builds
 * the image from `build: .` (or, with `PAYMENT_SANDBOX_IMAGE` built ahead from the same
 * Dockerfile, runs that image as `payment-sandbox` without building), publishes the sandbox on PAYMENT_SANDBOX_HOST_PORT (a free port
 * here), and the check shows: the app reaches the sandbox by its service name; a checkout
 * payment's `payment_url` opens from the host; settling it delivers a signed webhook to the
 * app over the compose network; the go-live report runs with `exec -T` as the file says.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareImage } from '../support/container-image.js';
import { freePort } from '../support/ports.js';
import { until } from '../support/until.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docker = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
const podmanCompose = spawnSync('podman-compose', ['version'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
const buildArgs = process.env.CONTAINER_BUILD_ARGS ?? '--format docker';
/** The compose command: docker's plugin, else podman-compose with this machine's build arguments. */
const tool: [string, ...string[]] = docker
  ? ['docker', 'compose']
  : ['podman-compose', ...(buildArgs.trim() ? ['--podman-build-args', buildArgs.trim()] : [])];
const engine = docker ? 'docker' : 'podman';
const project = `payment-sandbox-compose-check-${process.pid}`;

/** The merchant's app: records every POST (path, signature header, raw body); GET answers the list. */
const RECEIVER = `
const http = require('node:http');
const got = [];
http.createServer((req, res) => {
  if (req.method === 'GET') { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(got)); return; }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    got.push({ path: req.url, signature: req.headers.signature ?? null, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
  });
}).listen(3000, '0.0.0.0');
`;

let dir = '';
let sandboxPort = 0;
let appPort = 0;
let origin = '';
let env: NodeJS.ProcessEnv = {};

function compose(args: string[], timeoutMs = 120_000): SpawnSyncReturns<string> {
  const [cmd, ...pre] = tool;
  return spawnSync(cmd, [...pre, '-p', project, '-f', join(root, 'compose.yaml'), '-f', join(dir, 'app.yaml'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env,
    timeout: timeoutMs,
  });
}

function ok(res: SpawnSyncReturns<string>, what: string): string {
  if (res.status !== 0) throw new Error(`${what} exited ${res.status}: ${res.stderr || res.stdout}`);
  return res.stdout;
}

async function get(url: string): Promise<Response | undefined> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(2000) });
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  if (!docker && !podmanCompose) throw new Error('no compose tool: docker compose, or podman-compose (apt-get install podman-compose)');
  dir = mkdtempSync(join(tmpdir(), 'compose-check-'));
  sandboxPort = await freePort();
  appPort = await freePort();
  origin = `http://127.0.0.1:${sandboxPort}`;
  env = { ...process.env, PAYMENT_SANDBOX_HOST_PORT: String(sandboxPort) };
  // The merchant's app as the service `app`, from the same image (it has node); its port is
  // published on loopback only so the check can read what it received.
  const app = {
    services: {
      app: {
        image: 'payment-sandbox',
        entrypoint: ['node', '-e', RECEIVER],
        ports: [`127.0.0.1:${appPort}:3000`],
      },
    },
  };
  writeFileSync(join(dir, 'app.yaml'), JSON.stringify(app, null, 2));
  if (process.env.PAYMENT_SANDBOX_IMAGE) prepareImage(engine, [], 'payment-sandbox', root);
  const up = process.env.PAYMENT_SANDBOX_IMAGE ? ['up', '-d', '--no-build'] : ['up', '-d', '--build'];
  ok(compose(up, 900_000), `${tool.join(' ')} ${up.join(' ')}`);
  await until('the sandbox on the published port', async () => ((await get(`${origin}/_sandbox/health`))?.ok ? true : undefined));
  await until('the app on its port', async () => ((await get(`http://127.0.0.1:${appPort}/`))?.ok ? true : undefined));
}, 960_000);

afterAll(() => {
  if (dir) {
    compose(['down', '-v'], 120_000);
    // podman-compose's down leaves the project's network behind.
    spawnSync(engine, ['network', 'rm', '-f', `${project}_default`], { stdio: 'ignore', timeout: 60_000 });
    rmSync(dir, { recursive: true, force: true });
  }
});

interface Received {
  path: string;
  signature: string | null;
  body: string;
}

describe(`compose.yaml with an app service (${tool[0]})`, () => {
  it('the app reaches the sandbox by its service name on the compose network', () => {
    // The engine's own exec on the app's container (found by compose's labels): its exit status
    // and output come back whole, where podman-compose's exec keeps neither.
    const app = spawnSync(
      engine,
      ['ps', '-q', '--filter', `label=com.docker.compose.project=${project}`, '--filter', 'label=com.docker.compose.service=app'],
      { encoding: 'utf8' },
    ).stdout.trim();
    expect(app).toMatch(/^\w+$/);
    const probe =
      "fetch('http://payment-sandbox:4010/_sandbox/health').then((r) => { console.log(r.status); process.exit(r.ok ? 0 : 1); })";
    const res = spawnSync(engine, ['exec', app, 'node', '-e', probe], { encoding: 'utf8', timeout: 60_000 });
    expect(ok(res, `${engine} exec app`).trim()).toBe('200');
  });

  it("a checkout payment's payment_url opens from the host, and settling it delivers a signed webhook to the app", async () => {
    const { accounts } = (await (await fetch(`${origin}/_sandbox/credentials`)).json()) as {
      accounts: { account_id: string; api_key: string; name: string }[];
    };
    const checkout = accounts.find((a) => a.name === 'checkout')!;
    const created = await fetch(`${origin}/v4/transactions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${checkout.api_key}`,
        'x-merchant-account-id': checkout.account_id,
        'content-type': 'application/json',
        'idempotency-key': `compose-check-${process.pid}`,
      },
      body: JSON.stringify({
        amount: 2500,
        currency: 'USD',
        description: 'Order 1',
        external_identifier: 'compose-1',
        return_url: 'http://localhost:3000/thanks',
      }),
    });
    expect(created.status).toBe(201);
    const tx = (await created.json()) as { id: string; payment_url: string };

    // The link a browser on the host gets: the published port, through --public-url.
    expect(tx.payment_url).toBe(`http://localhost:${sandboxPort}/pay/${tx.id}`);
    const page = await fetch(tx.payment_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/25\.00/);

    const settled = await fetch(`${origin}/_sandbox/transactions/${tx.id}/settle`, { method: 'POST' });
    expect(settled.status).toBeLessThan(300);
    const webhook = await until(
      "the payment webhook at the app's /webhooks",
      async () => {
        const got = (await (await fetch(`http://127.0.0.1:${appPort}/`)).json()) as Received[];
        return got.find((r) => r.body.includes(tx.id));
      },
      30_000,
    );
    expect(webhook.path).toBe('/webhooks');
    const publicKey = await (await fetch(`${origin}/_sandbox/webhook-public-key`)).text();
    expect(verify('sha256', Buffer.from(webhook.body), publicKey, Buffer.from(webhook.signature ?? '', 'base64'))).toBe(true);
    expect(JSON.parse(webhook.body)).toMatchObject({ ll_transaction_id: tx.id, merchant_transaction_id: 'compose-1' });

    // The sandbox recorded the app's acknowledgement.
    const deliveries = (await (await fetch(`${origin}/_sandbox/deliveries`)).json()) as {
      items: { resource_id: string; status: string; url: string }[];
    };
    expect(deliveries.items.find((d) => d.resource_id === tx.id)).toMatchObject({ status: 'delivered', url: 'http://app:3000/webhooks' });
  });

  it("runs the go-live report inside the sandbox's service with exec -T, as compose.yaml says", () => {
    const res = compose(['exec', '-T', 'payment-sandbox', 'node', 'bin/payment-sandbox.js', 'report', '--format', 'junit'], 60_000);
    expect(ok(res, 'exec payment-sandbox report')).toMatch(/<testsuites?[\s>]/);
  });

  it(`keeps --db on the project's named volume (${engine})`, () => {
    const volumes = spawnSync(engine, ['volume', 'ls', '--format', '{{.Name}}'], { encoding: 'utf8' }).stdout;
    expect(volumes).toMatch(new RegExp(`^${project}_sandbox-data$`, 'm'));
  });
});
