/**
 * The sandbox's storage in one piece: the SQLite database (`database.ts`), a repository per
 * table, the unit of work over them, the persisted clock offset, and the wipe a reset does.
 */
import type { DeliveriesRepo, UnitOfWork } from './core/domain/ports.js';
import type { HttpRecords } from './core/http/ports.js';
import { accountsStore, type AccountsRepo } from './features/accounts/index.js';
import { buyersStore, type BuyersRepo } from './features/buyers/index.js';
import { getMeta, openDatabase, type Db } from './core/db/database.js';
import { deliveriesStore } from './core/webhooks/deliveries-store.js';
import { idempotencyStore } from './core/http/idempotency-store.js';
import { requestLogStore } from './core/http/request-log-store.js';
import { takeSnapshot } from './core/db/snapshot.js';
import { SANDBOX_SCHEMA } from './sandbox-schema.js';
import { subscriptionsStore, type SubscriptionsRepo } from './features/subscriptions/index.js';
import { transactionsStore, type TransactionsRepo } from './features/transactions/index.js';
import { createUnitOfWork } from './core/db/unit-of-work.js';
import { createAccountClocks, parseAccountOffsets, type AccountClocks } from './core/clock/account-clocks.js';

const CLOCK_OFFSET = 'clock_offset_ms';
/** Each account's own clock offset (JSON: account id → milliseconds). */
const ACCOUNT_CLOCK_OFFSETS = 'account_clock_offsets';

/** The clock offsets a database holds: the sandbox clock's and each account's own (as `openStore` reads them). */
export function storedClockOffsets(db: Db): { offsetMs: number; accountOffsets: Record<string, number> } {
  return { offsetMs: Number(getMeta(db, CLOCK_OFFSET) ?? 0), accountOffsets: parseAccountOffsets(getMeta(db, ACCOUNT_CLOCK_OFFSETS)) };
}

/** Every table a reset empties: all data but the accounts. */
const DATA_TABLES = [
  'buyers',
  'transactions',
  'refunds',
  'idempotency_keys',
  'request_log',
  'deliveries',
  'delivery_attempts',
  'subscriptions',
  'scheduled_steps',
] as const;

/** How much of the logs is kept (newest entries); unlimited when not given. */
export interface Retention {
  requestLogLimit?: number;
  /** Finished deliveries (and their attempts); pending ones are always kept. */
  deliveryLogLimit?: number;
}

/**
 * The storage of the features whose records something built before them reads, built once
 * here: the core's auth reads the accounts, the dispatcher a refund's payment, the accounts
 * seed buyers, the go-live report (below the transactions and subscriptions) their records. The
 * composition hands each feature its own (and a feature below another the read ports it is
 * given), never all of them. A feature whose records only it reads opens its store itself
 * from the core's database (the scenario steps, `features/scenarios/index.ts`).
 */
export interface FeatureStores {
  accounts: AccountsRepo;
  buyers: BuyersRepo;
  transactions: TransactionsRepo;
  subscriptions: SubscriptionsRepo;
}

export interface SqliteStore {
  db: Db;
  /** The features' storage. */
  stores: FeatureStores;
  /** The webhook dispatcher's deliveries (the core's). */
  deliveries: DeliveriesRepo;
  /** The HTTP layer's own records (idempotency keys, the request log). */
  httpRecords: HttpRecords;
  uow: UnitOfWork;
  /** The sandbox clock's offset from real time as last persisted (0 for a new database). */
  clockOffsetMs(): number;
  saveClockOffset(ms: number): void;
  /** Each account's own clock offset as last persisted (none for a new database). */
  accountClockOffsets(): Record<string, number>;
  saveAccountClockOffsets(offsets: Record<string, number>): void;
  /** A consistent copy of the whole database as an SQLite file's bytes, taken while serving (core/db/snapshot.ts). */
  snapshot(): Promise<Buffer>;
  /** Deletes all data but the accounts (inside the caller's unit of work, if any). */
  wipe(): void;
  close(): void;
}

/**
 * Opens (and migrates) the database at `path` (`:memory:` for one in memory), from the
 * snapshot `restore` (its bytes, checked by `readSnapshot`) when given.
 * @throws DatabaseOpenError with a one-line message when the file cannot be opened or written.
 */
export function openStore(
  path: string,
  onEffectError: (err: unknown) => void,
  retention: Retention = {},
  restore?: Buffer,
  clocks: AccountClocks = createAccountClocks(),
): SqliteStore {
  const db = openDatabase(path, SANDBOX_SCHEMA, restore);
  // Start-up: no request is in flight, so a key still `processing` was left by a crash. A
  // retry must run again (nothing was stored for it) rather than meet 409 for 24 hours.
  db.exec("DELETE FROM idempotency_keys WHERE state = 'processing'");
  const uow = createUnitOfWork(db, onEffectError);
  // Saved once per step of a clock advance: prepared once.
  const saveOffset = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const requestLog = requestLogStore(db, retention.requestLogLimit, onEffectError);
  const transactions = transactionsStore(db, clocks);
  return {
    db,
    uow,
    stores: {
      accounts: accountsStore(db),
      buyers: buyersStore(db),
      transactions,
      subscriptions: subscriptionsStore(db, clocks),
    },
    deliveries: deliveriesStore(db, retention.deliveryLogLimit, clocks),
    httpRecords: { idempotency: idempotencyStore(db, clocks), requestLog },
    clockOffsetMs: () => storedClockOffsets(db).offsetMs,
    saveClockOffset: (ms) => void saveOffset.run(CLOCK_OFFSET, String(ms)),
    accountClockOffsets: () => storedClockOffsets(db).accountOffsets,
    saveAccountClockOffsets: (offsets) => void saveOffset.run(ACCOUNT_CLOCK_OFFSETS, JSON.stringify(offsets)),
    snapshot: () => takeSnapshot(db, () => requestLog.flush()),
    wipe: () =>
      uow.run(() => {
        // secure_delete (database.ts) zeroes what is deleted; the checkpoint after the commit
        // empties the write-ahead log, which still held the old pages. The request log's queue is
        // written first, so its AUTOINCREMENT counter moves past every id given out (none is reused).
        requestLog.flush();
        for (const table of DATA_TABLES) db.exec(`DELETE FROM ${table}`);
        transactions.forget();
        uow.afterCommit(() => {
          if (path !== ':memory:') db.pragma('wal_checkpoint(TRUNCATE)');
        });
      }),
    close: () => {
      try {
        if (db.open) requestLog.flush();
      } catch (err) {
        onEffectError(err); // a full disk: the last log entries are lost, the file still closes
      }
      db.close();
    },
  };
}
