/**
 * `import { PaymentSandboxContainer } from 'payment-sandbox/testcontainers'`: the sandbox's
 * image as a Testcontainers module (as LocalStack's `LocalStackContainer`). It needs the
 * `testcontainers` package, an optional peer dependency: install it beside this one.
 *
 *   const sandbox = await new PaymentSandboxContainer('payment-sandbox').withOptions({ webhookCanary: true }).start();
 *   const listener = await sandbox.forwardWebhooksTo(3000); // webhooks reach 127.0.0.1:3000/webhooks on this machine
 *   ... await sandbox.settle(id); const report = await sandbox.report(); ...
 *   await sandbox.stop();
 *
 * The options are the sandbox's own (`startSandbox`'s, validated by the same schema before the
 * container starts) and reach it as `PAYMENT_SANDBOX_*` variables. The start waits for
 * `GET /_sandbox/health` to answer 200 from this process, which works with every engine (the
 * image's `HEALTHCHECK` is not used: podman drops it from OCI-format builds and runs it only
 * with systemd).
 */
import { createServer } from 'node:net';
import { AbstractStartedContainer, GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { envName, resolveOptions, type SandboxOptions, type SandboxOptionsInput } from './core/config.js';
import { forwardWebhooks, type WebhookForwarder } from './features/forwarder/index.js';
import type { GoLiveReport } from './features/go-live/index.js';
import type { Delivery } from './features/webhooks/index.js';
import type { ControlTransaction, Refund } from './features/transactions/index.js';
import {
  controlClient,
  readCredentials,
  readReport,
  type ControlCall,
  type ReportOptions,
  type SandboxCredentials,
} from './control-client.js';

export { SandboxRequestError, type AccountCredentials, type ReportOptions, type SandboxCredentials } from './control-client.js';
export type { GoLiveReport } from './features/go-live/index.js';
export type { WebhookForwarder } from './features/forwarder/index.js';

/** The port the sandbox listens on inside the image. */
export const SANDBOX_PORT = 4010;

/**
 * The sandbox's options for a container: those with a `PAYMENT_SANDBOX_*` variable, less the
 * ones the container fixes (`port`, `host`, `portFile`). Paths (`db`, `scenario`, `fixtures`,
 * `restore`) are paths inside the container (the image ships `/app/fixtures/shop.json`).
 */
export type PaymentSandboxContainerOptions = {
  [K in Exclude<keyof SandboxOptionsInput, FixedOption | 'fixtures' | 'latency'>]?: unknown extends SandboxOptionsInput[K]
    ? SandboxOptions[K] // a coerced option (a number, a switch, a list): the type it becomes
    : SandboxOptionsInput[K];
} & {
  /** Fixtures files inside the container, applied in order at start. */
  fixtures?: string[];
  /** Time added to each /v4 call: milliseconds, or `p50=MS,p99=MS`. */
  latency?: number | string | { p50Ms: number; p99Ms: number };
};

type FixedOption = 'port' | 'host' | 'portFile' | 'ticker' | 'deliveryTimeoutMs';

const FIXED: ReadonlySet<string> = new Set<FixedOption>(['port', 'host', 'portFile', 'ticker', 'deliveryTimeoutMs']);

/** Each option as its `PAYMENT_SANDBOX_<NAME>` variable (lists comma-separated, switches `true`/`false`). */
export function sandboxEnvironment(options: PaymentSandboxContainerOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options) as [string, unknown][]) {
    if (value === undefined) continue;
    if (FIXED.has(name)) throw new TypeError(`payment-sandbox/testcontainers: the container sets ${name} itself`);
    let text: string;
    if (Array.isArray(value)) text = value.map(String).join(',');
    else if (typeof value === 'object' && value !== null) {
      const { p50Ms, p99Ms } = value as { p50Ms: number; p99Ms: number };
      text = `p50=${p50Ms},p99=${p99Ms}`;
    } else text = String(value);
    env[envName(name)] = text;
  }
  return env;
}

/** A port nobody on this machine listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The sandbox image, configured before `start()`; every `GenericContainer` method applies too. */
export class PaymentSandboxContainer extends GenericContainer {
  private sandboxOptions: PaymentSandboxContainerOptions = {};

  /** @param image the image built from the sandbox's Dockerfile (default `payment-sandbox`). */
  constructor(image = 'payment-sandbox') {
    super(image);
    this.withWaitStrategy(Wait.forHttp('/_sandbox/health', SANDBOX_PORT).forStatusCode(200)).withStartupTimeout(60_000);
  }

  /** The default webhook target (`--notification-url`): a URL the container can reach. */
  withNotificationUrl(url: string): this {
    return this.withOptions({ notificationUrl: url });
  }

  /** The sandbox's options (merged over earlier calls), passed as `PAYMENT_SANDBOX_*` variables. */
  withOptions(options: PaymentSandboxContainerOptions): this {
    this.sandboxOptions = { ...this.sandboxOptions, ...options };
    return this;
  }

  /**
   * Starts the container on a free port of this machine and resolves once the sandbox answers
   * `GET /_sandbox/health`; payment links (`payment_url`) use that port unless `publicUrl` says otherwise.
   * @throws OptionsError for a bad option, before any container starts.
   */
  override async start(): Promise<StartedPaymentSandboxContainer> {
    const options: PaymentSandboxContainerOptions = { ...this.sandboxOptions };
    const env = sandboxEnvironment(options); // refuses the options the container fixes
    resolveOptions(options); // the sandbox's own validation, with its messages
    const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
    const hostPort = await freePort();
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${hostPort}`;
    if (options.publicUrl === undefined) env[envName('publicUrl')] = origin;
    if (!LOOPBACK.has(host)) env[envName('allowedHosts')] = [...(options.allowedHosts ?? []), host].join(',');
    this.withExposedPorts({ container: SANDBOX_PORT, host: hostPort }).withEnvironment(env);
    const started = await super.start();
    const url = `http://${started.getHost()}:${started.getMappedPort(SANDBOX_PORT)}`;
    const call = controlClient(url, options.adminToken);
    let credentials: SandboxCredentials;
    try {
      credentials = await readCredentials(call);
    } catch (err) {
      await started.stop();
      throw err;
    }
    return new StartedPaymentSandboxContainer(started, url, credentials, call, options.adminToken);
  }
}

/** What `forwardWebhooksTo` takes besides the target. */
export interface ForwardWebhooksToOptions {
  /** The path on `127.0.0.1:<port>` when the target is a port (default `/webhooks`). */
  path?: string;
  /** Take only this account's deliveries (default: every account's). */
  accountId?: string;
}

/** A running sandbox container: its URL, the demo credentials, and the control calls a test needs. */
export class StartedPaymentSandboxContainer extends AbstractStartedContainer {
  /** Base of the merchant API: `${url}/v4`. */
  readonly apiUrl: string;
  private readonly forwarders = new Set<WebhookForwarder>();

  constructor(
    started: StartedTestContainer,
    /** The sandbox's origin on this machine, e.g. `http://localhost:49153` (panel at `/`, control API at `/_sandbox`). */
    readonly url: string,
    /** The demo accounts (`direct`, `checkout`, each with ready `headers`) and the webhook public key. */
    readonly credentials: SandboxCredentials,
    private readonly call: ControlCall,
    private readonly adminToken?: string,
  ) {
    super(started);
    this.apiUrl = `${url}/v4`;
  }

  /** Outcome SUCCEEDED now, and its payment webhook. */
  settle(transactionId: string): Promise<ControlTransaction> {
    return this.call('POST', `/transactions/${encodeURIComponent(transactionId)}/settle`);
  }

  /** Outcome FAILED now, and its payment webhook. */
  fail(transactionId: string): Promise<ControlTransaction> {
    return this.call('POST', `/transactions/${encodeURIComponent(transactionId)}/fail`);
  }

  /** Refunds `amount` (minor units; default: the remainder), and its refund webhook. */
  refund(transactionId: string, amount?: number): Promise<Refund> {
    return this.call('POST', `/transactions/${encodeURIComponent(transactionId)}/refund`, amount === undefined ? {} : { amount });
  }

  /** The newest webhook deliveries (at most 100), each with its attempts. */
  async deliveries(): Promise<Delivery[]> {
    return (await this.call<{ items: Delivery[] }>('GET', '/deliveries?limit=100')).items;
  }

  /** The go-live report (`GET /_sandbox/report`); `requireCoverage` adds a `coverage_missing` error per scenario not seen. */
  report(options?: ReportOptions): Promise<GoLiveReport> {
    return readReport(this.call, options);
  }

  /**
   * Runs the webhook listener in this process: while it is connected, the sandbox hands each
   * webhook to it instead of posting it, and it POSTs them to `target` (a port means
   * `http://127.0.0.1:<port>/webhooks`), reporting each answer back as the attempt's answer
   * (retries, order and the report as for a direct delivery). No host networking needed.
   * Resolves once connected; `stop()` of the container stops it first.
   */
  async forwardWebhooksTo(target: number | string, options: ForwardWebhooksToOptions = {}): Promise<WebhookForwarder> {
    const forwardTo = typeof target === 'number' ? `http://127.0.0.1:${target}${options.path ?? '/webhooks'}` : target;
    const forwarder = await forwardWebhooks({
      sandboxUrl: this.url,
      forwardTo,
      ...(options.accountId === undefined ? {} : { accountId: options.accountId }),
      ...(this.adminToken === undefined ? {} : { adminToken: this.adminToken }),
    });
    this.forwarders.add(forwarder);
    return {
      closed: forwarder.closed,
      stop: async () => {
        this.forwarders.delete(forwarder);
        await forwarder.stop();
      },
    };
  }

  protected override async containerStopping(): Promise<void> {
    const open = [...this.forwarders];
    this.forwarders.clear();
    await Promise.all(open.map((f) => f.stop()));
  }
}
