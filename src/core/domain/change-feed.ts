/**
 * The change feed the domain emits on (`domain/ports.ts` `ChangeFeed`): each change is stamped
 * with the sandbox time and published to the listeners (`GET /_sandbox/events`, the terminal)
 * after the commit of the work under way, so nothing that rolls back is ever seen.
 */
import { isoTimestamp } from '../clock/clock.js';
import type { ChangeType, SandboxEvent } from './events.js';
import type { ChangeFeed, UnitOfWork } from './ports.js';

export interface ChangeFeedDeps {
  /** Where changes are published (`SandboxEvents`); `listens(type)` is false while nobody listens to that type. */
  events: {
    listens(type: ChangeType): boolean;
    emit(event: SandboxEvent): void;
  };
  uow: Pick<UnitOfWork, 'afterCommit'>;
  nowMs(): number;
}

/** A feed that costs nothing while nobody listens to a change's type, and publishes after the commit. */
export function createChangeFeed({ events, uow, nowMs }: ChangeFeedDeps): ChangeFeed {
  return {
    emit(type, accountId, data) {
      if (!events.listens(type)) return;
      const at = isoTimestamp(nowMs());
      uow.afterCommit(() => events.emit({ type, account_id: accountId, data, at }));
    },
  };
}
