/**
 * How a sandbox stops: shutdown first drains the webhook attempts under way, then
 * `close` stops the timers, lets the dispatcher finish, keeps what a database file must keep
 * for the next start, and closes the database last.
 */

export interface LifecycleDeps {
  /** Stops the scheduler's ticker (none without `ticker`). */
  stopTicker(): void;
  /** The key pool (`--key-pool`) and the buyers owed to accounts whose keys were made ahead. */
  accounts: { stopKeyPool(): void; seedOwedBuyers(): void };
  /** Whether the data outlives the process (a `--db` file): then the owed buyers are stored now. */
  persistent: boolean;
  webhooks: { idle(): Promise<void>; close(): void; drain(graceMs: number): Promise<void> };
  /** The go-live report's aggregates, written behind: flushed before the database closes. */
  report: { flush(): void };
  store: { close(): void };
}

export interface Lifecycle {
  /** Stops timers and in-flight work, closes the database. */
  close(): Promise<void>;
  /**
   * Waits up to `graceMs` for the webhook attempts under way, then cuts the rest, unrecorded;
   * their deliveries stay pending for the next start on the same file.
   */
  drainWebhooks(graceMs: number): Promise<void>;
}

export function createLifecycle({ stopTicker, accounts, persistent, webhooks, report, store }: LifecycleDeps): Lifecycle {
  return {
    async close() {
      stopTicker();
      accounts.stopKeyPool();
      await webhooks.idle();
      webhooks.close();
      if (persistent) accounts.seedOwedBuyers(); // the file keeps them for the next start
      report.flush();
      store.close();
    },
    drainWebhooks: (graceMs) => webhooks.drain(graceMs),
  };
}
