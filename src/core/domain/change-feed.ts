/**
 * The change feed the domain emits on (`domain/ports.ts` `ChangeFeed`): each change is stamped
 * with the sandbox time and published to the listeners (`GET /_sandbox/events`, the terminal)
 * after the commit of the work under way, so nothing that rolls back is ever seen.
 */
import { isoTimestamp } from '../clock/clock.js';
import type { SandboxEvent } from './events.js';
import type { ChangeFeed, UnitOfWork } from './ports.js';

export interface ChangeFeedDeps {
  /** Where changes are published (`SandboxEvents`); `listened` is false while nobody listens. */
  events: {
    readonly listened: boolean;
    emit(event: SandboxEvent): void;
  };
  uow: Pick<UnitOfWork, 'afterCommit'>;
  nowMs(): number;
}

/** A feed that costs nothing while no panel listens, and publishes after the commit. */
export function createChangeFeed({ events, uow, nowMs }: ChangeFeedDeps): ChangeFeed {
  return {
    emit(type, accountId, data) {
      if (!events.listened) return;
      const at = isoTimestamp(nowMs());
      uow.afterCommit(() => events.emit({ type, account_id: accountId, data, at }));
    },
  };
}
