/**
 * A listener that outlives the sandbox it listens to: `payment-sandbox listen` keeps forwarding
 * across a restart of the sandbox (a `--watch` reload, a container restarted), as the Stripe
 * CLI's `listen` does. When the stream closes or breaks, it says so and connects again, waiting
 * longer between tries up to a few seconds, until the sandbox answers or it is stopped. A
 * sandbox that answers but refuses the listener (an unknown `--account`, a wrong admin token)
 * ends it: trying again would be refused again.
 */
import { forwardWebhooks, ForwardWebhooksError, type ForwardWebhooksOptions, type WebhookForwarder } from './forward-webhooks.js';

/** The waits before each try to connect again, in milliseconds: the last one repeats. */
export const RECONNECT_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 5_000];

export interface KeepForwardingOptions extends ForwardWebhooksOptions {
  /** The stream was lost (`reason`); tries to connect again follow. */
  onLost?: (reason: string) => void;
  /** Connected again after a loss. */
  onBack?: () => void;
  /** The waits before each try (default `RECONNECT_DELAYS_MS`). */
  delaysMs?: readonly number[];
}

const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Connects as `forwardWebhooks` does (its errors are this call's), then connects again each
 * time the stream is lost. `closed` settles when `stop()` was called (resolves) or when the
 * sandbox refused a new connection (rejects with its `ForwardWebhooksError`).
 */
export async function keepForwarding(options: KeepForwardingOptions): Promise<WebhookForwarder> {
  const delays = options.delaysMs ?? RECONNECT_DELAYS_MS;
  let current = await forwardWebhooks(options);
  let stopping = false;
  let wake = (): void => {};
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** Connects again after a loss; null once stopped. Throws when the sandbox refuses. */
  const reconnect = async (): Promise<WebhookForwarder | null> => {
    for (let tries = 0; ; tries++) {
      await wait(delays[Math.min(tries, delays.length - 1)]!);
      if (stopping) return null;
      try {
        const fresh = await forwardWebhooks(options);
        if (!stopping) return fresh;
        await fresh.stop();
        return null;
      } catch (err) {
        // Not there yet (restarting): try again. There, but refusing: stop trying.
        if (err instanceof ForwardWebhooksError && err.refused) throw err;
      }
    }
  };

  const closed = (async () => {
    for (;;) {
      const lost = await current.closed.then(
        () => null,
        (err: unknown) => err,
      );
      if (stopping) return;
      options.onLost?.(reasonOf(lost ?? 'the stream ended'));
      const fresh = await reconnect();
      if (fresh === null) return;
      current = fresh;
      options.onBack?.();
    }
  })();
  closed.catch(() => {});

  return {
    closed,
    async stop() {
      stopping = true;
      wake();
      await current.stop();
      await closed.catch(() => {});
    },
  };
}
