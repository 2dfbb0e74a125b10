/**
 * Queries over due work (webhook retries, renewals, link expiries, scenario steps) when each
 * account has its own clock. A row's instant is stored on its account's clock; the same query
 * comes in three forms, picked at each call:
 * - inside an account (`scope()`): that account's rows, their instants as stored (its own time);
 * - outside any account, when some account's clock is ahead: every row, each instant brought
 *   back to the sandbox clock (less its account's own offset), so the sandbox clock's work
 *   finds each account's work due on that account's clock;
 * - otherwise the plain query, as fast as before accounts had clocks.
 */
import type { AccountClocks } from '../clock/account-clocks.js';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './database.js';

/** The SQL function giving an account's own clock offset in milliseconds. */
const OFFSET_FUNCTION = 'sandbox_account_offset';
const registered = new WeakMap<Db, Pick<AccountClocks, 'offsetOf'>>();

/** How a query's text names a due instant (`due(column)`) and the account's rows (`scope`). */
export interface DueSql {
  due(column: string): string;
  scope: string;
}

type Statement = BetterSqlite3.Statement<unknown[]>;

/** A due-work query in its three forms; `statement()` picks one and gives its bound arguments' tail. */
export interface AccountTimedQuery {
  all<R>(...args: unknown[]): R[];
  get<R>(...args: unknown[]): R | undefined;
  iterate<R>(...args: unknown[]): IterableIterator<R>;
  /** Runs a statement that changes rows; answers how many it changed. */
  run(...args: unknown[]): number;
}

/**
 * Prepares `text(sql)` in its three forms (lazily). `pluck` for a query answering one column.
 */
export function accountTimedQuery(
  db: Db,
  clocks: Pick<AccountClocks, 'scope' | 'any' | 'offsetOf'>,
  text: (sql: DueSql) => string,
  { pluck = false }: { pluck?: boolean } = {},
): AccountTimedQuery {
  if (registered.get(db) !== clocks) {
    registered.set(db, clocks);
    db.function(OFFSET_FUNCTION, { deterministic: false }, (accountId: unknown) =>
      typeof accountId === 'string' ? clocks.offsetOf(accountId) : 0,
    );
  }
  const forms: Partial<Record<'plain' | 'shifted' | 'scoped', Statement>> = {};
  const prepare = (form: 'plain' | 'shifted' | 'scoped'): Statement => {
    let stmt = forms[form];
    if (!stmt) {
      const sql: DueSql =
        form === 'plain'
          ? { due: (column) => column, scope: '1' }
          : form === 'shifted'
            ? { due: (column) => `(${column} - ${OFFSET_FUNCTION}(account_id))`, scope: '1' }
            : { due: (column) => column, scope: 'account_id = @scope' };
      stmt = db.prepare<unknown[]>(text(sql));
      if (pluck) stmt.pluck();
      forms[form] = stmt;
    }
    return stmt;
  };
  const bind = (args: unknown[]): { stmt: Statement; args: unknown[] } => {
    const scope = clocks.scope();
    if (scope !== null) return { stmt: prepare('scoped'), args: [...args, { scope }] };
    return { stmt: prepare(clocks.any() ? 'shifted' : 'plain'), args };
  };
  return {
    all<R>(...args: unknown[]) {
      const b = bind(args);
      return b.stmt.all(...b.args) as R[];
    },
    get<R>(...args: unknown[]) {
      const b = bind(args);
      return b.stmt.get(...b.args) as R | undefined;
    },
    iterate<R>(...args: unknown[]) {
      const b = bind(args);
      return b.stmt.iterate(...b.args) as IterableIterator<R>;
    },
    run(...args: unknown[]) {
      const b = bind(args);
      return b.stmt.run(...b.args).changes;
    },
  };
}
