/**
 * The webhook canary (`--webhook-canary`, or an account's own `webhook_canary`): after the
 * first delivery a URL of an account acknowledged, the sandbox sends that URL one copy of it
 * with a broken signature, marked as a canary. The copy is a `bad_signature` delivery: outside
 * its transaction's order (real deliveries keep theirs), attempted once and never retried. The
 * report then reads the merchant's answer as it reads a scripted bad signature: acknowledged is
 * `webhook_signature_not_verified`, refused is `webhook_bad_signature` seen. Once per URL of an
 * account: a shop whose tests never ask for the fault still learns whether it verifies.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock/clock.js';
import type { Delivery } from '../../core/domain/entities.js';
import type { DeliveriesRepo, RecordedAttempt, UnitOfWork } from '../../core/domain/ports.js';

export interface WebhookCanaryDeps {
  /** Whether the account's URLs get a canary (its own setting, else the option). */
  enabled(accountId: string): boolean;
  deliveries: Pick<DeliveriesRepo, 'hasCanary' | 'insert'>;
  uow: Pick<UnitOfWork, 'run' | 'afterCommit'>;
  clock: Pick<Clock, 'nowMs' | 'inAccount'>;
  /** The dispatcher hears of the copy queued (inside the unit of work), then is nudged after the commit. */
  queued(id: string, nextAttemptAt: number): void;
  nudge(): void;
}

/** Whether an attempt is the first acknowledgement that may call for a canary: an ordinary delivery (no scripted fault) with a URL. */
function callsForCanary({ delivery: d, ok }: RecordedAttempt<Delivery>): boolean {
  return ok && d.fault === null && (d.canary ?? 0) === 0 && d.url !== null;
}

/** Hears each recorded attempt; queues the canary of its URL when one is due. Returns the canary's id, if it queued one. */
export function webhookCanary(deps: WebhookCanaryDeps): (attempt: RecordedAttempt<Delivery>) => string | undefined {
  return (attempt) => {
    const { delivery: d } = attempt;
    const url = d.url;
    if (url === null || !callsForCanary(attempt) || !deps.enabled(d.account_id)) return undefined;
    return deps.clock.inAccount(d.account_id, () =>
      deps.uow.run(() => {
        if (deps.deliveries.hasCanary(d.account_id, url)) return undefined;
        const now = deps.clock.nowMs();
        const id = randomUUID();
        deps.deliveries.insert({
          id,
          account_id: d.account_id,
          kind: d.kind,
          resource_id: d.resource_id,
          url,
          body: d.body,
          signature: null,
          status: 'pending',
          attempts: 0,
          simulated_failures: 0,
          simulated_failure_status: 503,
          fault: 'bad_signature',
          order_key: null,
          canary: 1,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
          delivered_at: null,
        });
        deps.queued(id, now);
        deps.uow.afterCommit(() => deps.nudge(), 'deliveries.queued');
        return id;
      }),
    );
  };
}
