/**
 * A listener that outlives the sandbox it listens to: `payment-sandbox listen` keeps forwarding
 * across a restart of the sandbox (a container restarted, the sandbox started again), as the
 * Stripe CLI's `listen` does. When the stream closes or breaks, it says so and connects again,
 * waiting longer between tries up to a few seconds (`RECONNECT_DELAYS_MS`), until the sandbox
 * answers or it is stopped. A sandbox that answers but refuses the listener (an unknown
 * `--account`, a wrong admin token) ends it: trying again would be refused again.
 */
import { beforeReconnect } from '../../core/sandbox-client.js';
import { forwardWebhooks, ForwardWebhooksError, type ForwardWebhooksOptions, type WebhookForwarder } from './forward-webhooks.js';

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
  let current = await forwardWebhooks(options);
  const stopping = new AbortController();

  /** Connects again after a loss; null once stopped. Throws when the sandbox refuses. */
  const reconnect = async (): Promise<WebhookForwarder | null> => {
    for (let tries = 0; ; tries++) {
      await beforeReconnect(tries, stopping.signal, options.delaysMs);
      if (stopping.signal.aborted) return null;
      try {
        const fresh = await forwardWebhooks(options);
        if (!stopping.signal.aborted) return fresh;
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
      if (stopping.signal.aborted) return;
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
      stopping.abort();
      await current.stop();
      await closed.catch(() => {});
    },
  };
}
