/**
 * How a sandbox stops: shutdown first drains the webhook attempts under way, then
 * `close` stops the timers, lets the dispatcher finish, keeps what a database file must keep
 * for the next start, and closes the database last.
 */

export interface LifecycleDeps {
  /** Stops the scheduler's ticker (none without `ticker`). */
  stopTicker(): void;
  /** The key pool (`--key-pool`), and storing what the accounts whose keys were made ahead are still owed. */
  accounts: { stopKeyPool(): void; storeOwed(): void };
  /** Whether the data outlives the process (a `--db` file): then what the accounts are owed is stored now. */
  persistent: boolean;
  webhooks: { idle(): Promise<void>; close(): void; drain(graceMs: number): Promise<void> };
  /** The go-live report's aggregates, written behind: flushed before the database closes. */
  report: { flush(): void };
  store: { close(): void };
  /** Where a failure while closing is reported, as one line (the close goes on). */
  logger: { warn(event: string, text: string, fields?: Record<string, unknown>): void };
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

export function createLifecycle({ stopTicker, accounts, persistent, webhooks, report, store, logger }: LifecycleDeps): Lifecycle {
  return {
    async close() {
      stopTicker();
      accounts.stopKeyPool();
      await webhooks.idle();
      webhooks.close();
      // What a full disk refuses at close is said in one line, and the database still closes.
      const attempt = (event: string, what: string, work: () => void): void => {
        try {
          work();
        } catch (err) {
          logger.warn(event, `${what} at close: ${err instanceof Error ? err.message : String(err)}`);
        }
      };
      // The file keeps what the accounts are owed for the next start; when it cannot, the next
      // start makes it again.
      if (persistent)
        attempt('close.buyers_not_stored', "the accounts' buyers were not stored (made at the next start)", () => accounts.storeOwed());
      attempt('close.report_not_stored', "the go-live report's latest counts were not stored", () => report.flush());
      store.close();
    },
    drainWebhooks: (graceMs) => webhooks.drain(graceMs),
  };
}
