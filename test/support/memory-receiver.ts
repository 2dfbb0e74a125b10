/**
 * Webhook receivers without a socket, for the api tier: the sandbox is handed `poster`
 * (`SandboxRuntime.webhookPoster`), which hands each webhook to the receiver whose origin its
 * URL has, as the socket receiver (`receiver.ts`) would get it: the exact bytes, the headers in
 * lower case, the signature verified with node's own crypto and the published key, the answer
 * `respond` decides (after its `delayMs`, if any). A URL of no receiver is refused as a closed
 * port is (`ECONNREFUSED`). What needs bytes on the wire (compression, sizes of answers, time
 * limits, the target guard at connect time) stays with the socket receiver in the e2e tier.
 *
 *   const { app, hooks } = appWithReceiver();
 *   ... create a payment with notification_url: hooks.url ...
 *   const [hook] = await hooks.waitFor(1);
 */
import type { SandboxApp } from '../../src/app.js';
import type { SandboxRuntime } from '../../src/compose.js';
import type { SandboxOptions } from '../../src/core/config.js';
import type { Core } from '../../src/core/core.js';
import { DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../src/core/credentials/demo-credentials.js';
import { PostAbortedError, type PostAnswer, type WebhookPoster } from '../../src/core/webhooks/post.js';
import { testApp } from './app.js';
import { arrivals, receivedWebhook, type Arrivals, type Receiver } from './receiver.js';

export interface MemoryWebhooks {
  /** The poster to hand the sandbox: it delivers to this set's receivers. */
  poster: WebhookPoster;
  /** A new receiver at an origin of its own (`http://127.0.0.N:9`), verifying the demo signature unless told another key. */
  receiver(publicKeyPem?: string): Receiver;
}

/** A set of in-memory receivers and the poster that reaches them. */
export function memoryWebhooks(): MemoryWebhooks {
  const byOrigin = new Map<string, { arrived: Arrivals; publicKeyPem: string }>();
  const underWay = new Set<() => void>();
  const poster: WebhookPoster = {
    async post(url, headers, body, method = 'POST'): Promise<PostAnswer> {
      const target = new URL(url);
      const at = byOrigin.get(target.origin);
      if (!at || method !== 'POST') {
        throw Object.assign(new Error(`connect ECONNREFUSED ${target.host}`), { code: 'ECONNREFUSED' });
      }
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      const hook = receivedWebhook(
        body,
        { ...lower, 'content-length': String(Buffer.byteLength(body)) },
        target.pathname + target.search,
        at.publicKeyPem,
      );
      const answer = at.arrived.arrive(hook);
      if (answer.delayMs) {
        await new Promise<void>((resolve, reject) => {
          const cut = (): void => {
            clearTimeout(timer);
            reject(new PostAbortedError());
          };
          const timer = setTimeout(() => {
            underWay.delete(cut);
            resolve();
          }, answer.delayMs);
          underWay.add(cut);
        });
      }
      return { status: answer.status, text: answer.body, whole: true };
    },
    close() {},
    abort() {
      for (const cut of [...underWay]) cut();
      underWay.clear();
    },
  };
  return {
    poster,
    receiver(publicKeyPem = DEMO_WEBHOOK_PUBLIC_KEY_PEM) {
      const origin = `http://127.0.0.${byOrigin.size + 1}:9`;
      const arrived = arrivals(origin, async () => void byOrigin.delete(origin));
      byOrigin.set(origin, { arrived, publicKeyPem });
      return arrived.receiver;
    },
  };
}

/** A sandbox app (no socket, no ticker) whose webhooks reach `hooks`, an in-memory receiver; `net` makes more. */
export function appWithReceiver(
  options: Partial<SandboxOptions> = {},
  runtime: SandboxRuntime = {},
): SandboxApp & { hooks: Receiver; net: MemoryWebhooks } {
  const net = memoryWebhooks();
  const hooks = net.receiver();
  return { ...testApp(options, { ...runtime, webhookPoster: net.poster }), hooks, net };
}

/** The webhook attempts the sandbox has recorded (each once its answer is judged and stored), and a wait for the n-th. */
export function recordedAttempts(core: Pick<Core, 'observeAttempts'>): {
  count(): number;
  waitFor(n: number, timeoutMs?: number): Promise<void>;
} {
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  core.observeAttempts(() => {
    count += 1;
    for (const w of waiters.splice(0)) {
      if (count >= w.n) w.resolve();
      else waiters.push(w);
    }
  });
  return {
    count: () => count,
    waitFor(n, timeoutMs = 10_000) {
      if (count >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${n} recorded attempts, got ${count}`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
  };
}
