/**
 * The dates of a subscription as the Subscription object shows them, rebuilt from its
 * request, its creation time and its billing state (calendar arithmetic itself lives in
 * `billing-schedule.ts`).
 */
import { buildSchedule, isoDate, nthPeriod, type BillingSchedule } from './billing-schedule.js';
import type { Subscription } from './entities.js';

/** The dates of a subscription (epoch ms; date as YYYY-MM-DD). */
export interface SubscriptionCalendar {
  currentPeriodStart: number;
  currentPeriodEnd: number;
  nextBillingDate: string;
  trialStart: number | null;
  trialEnd: number | null;
}

/** The billing calendar of a subscription, rebuilt from its request and creation time. */
export function scheduleOf(sub: Pick<Subscription, 'request' | 'created_at'>): BillingSchedule {
  return buildSchedule({ created: new Date(sub.created_at), plan: sub.request.plan, trialEnd: sub.request.trial_end ?? null });
}

/**
 * The current period and next billing date. Before the first charge (a trial) the current
 * period is the trial; afterwards it is the latest period charged or being charged.
 * `next_billing_date` is the day of the next charge attempt: the trial's end, the end of the
 * current period, or, while `past_due`, the day of the next retry. A subscription with no
 * charge to come (cancelled, failed) shows the end of its last period.
 */
export function subscriptionCalendar(sub: Subscription): SubscriptionCalendar {
  const schedule = scheduleOf(sub);
  const period =
    sub.state.period < 0
      ? { start: schedule.trialStart ?? new Date(sub.created_at), end: schedule.origin }
      : nthPeriod(schedule, sub.state.period);
  return {
    currentPeriodStart: period.start.getTime(),
    currentPeriodEnd: period.end.getTime(),
    nextBillingDate: isoDate(new Date(sub.next_charge_at ?? period.end.getTime())),
    trialStart: schedule.trialStart?.getTime() ?? null,
    trialEnd: schedule.trialEnd?.getTime() ?? null,
  };
}

/**
 * The merchant reference of a charge, sent as the webhook's `merchant_transaction_id`:
 * `<external_identifier>.period-<n>` (n = 0 for the first charge, then the renewal number),
 * with `.attempt-<m>` for the retries of a failed renewal.
 */
export function chargeReference(externalIdentifier: string, period: number, attempt: number): string {
  return `${externalIdentifier}.period-${period}${attempt > 1 ? `.attempt-${attempt}` : ''}`;
}
