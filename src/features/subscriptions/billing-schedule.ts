/**
 * Subscription billing calendar: trial, first charge, the [start, end) of every billing
 * period and the next billing date. Pure UTC date arithmetic, no I/O and no clock: callers
 * pass the instants (from the sandbox clock) in.
 *
 * Every period is computed from the schedule's fixed grid (the billing_cycle_anchor, or the
 * first charge when there is none) as `grid + m × step`, never by adding to the previous
 * period, so month-end clamping never drifts (Jan 31 → Feb 28 → Mar 31 → Apr 30 …).
 */

import type { PlanInterval } from '../scenarios/index.js';

/** Allowed values of `plan.interval` (sandbox decision; the spec does not list them): `PLAN_INTERVALS`. */
export type { PlanInterval };

/** The part of a plan that fixes the length of one billing period. */
export interface PlanCadence {
  interval: PlanInterval;
  /** Number of `interval`s in one billing period (1 = every interval). */
  interval_time: number;
}

/** A half-open billing period [start, end). */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

/** The trial and the first charge of a subscription. */
export interface FirstCharge {
  trialStart: Date | null;
  trialEnd: Date | null;
  /** When the first period is charged and begins: the trial's end, or `created`. */
  chargeAt: Date;
}

/**
 * Everything needed to answer calendar questions about one subscription. Build it with
 * `buildSchedule`; it is plain data and can be rebuilt from stored fields at any time.
 */
export interface BillingSchedule {
  /** Start of paid period 0: the first charge (trial end, or creation time). */
  origin: Date;
  plan: PlanCadence;
  /** The billing_cycle_anchor instant, or null when renewals follow the origin. */
  anchor: Date | null;
  trialStart: Date | null;
  trialEnd: Date | null;
}

const DAY_MS = 86_400_000;

function assertInteger(name: string, value: number): void {
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer, got ${value}`);
}

function assertCadence(plan: PlanCadence): void {
  assertInteger('interval_time', plan.interval_time);
  if (plan.interval_time < 1) throw new RangeError(`interval_time must be at least 1, got ${plan.interval_time}`);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * `from` moved by `count` intervals (negative moves back), in UTC with the time of day kept.
 *
 * Day and week steps are exact multiples of 24 h. Month and year steps land on
 * `anchorDayOfMonth` (default: `from`'s day of month), clamped to the last day of shorter
 * months: Jan 31 + 1 month = Feb 28 (Feb 29 in a leap year); with anchor day 31,
 * Feb 28 + 1 month = Mar 31. Feb 29 + 1 year = Feb 28; + 4 years = Feb 29.
 * @throws RangeError if `count` is not an integer or `anchorDayOfMonth` is not 1–31.
 */
export function addInterval(from: Date, interval: PlanInterval, count: number, anchorDayOfMonth?: number): Date {
  assertInteger('count', count);
  switch (interval) {
    case 'day':
      return new Date(from.getTime() + count * DAY_MS);
    case 'week':
      return new Date(from.getTime() + count * 7 * DAY_MS);
    case 'month':
    case 'year': {
      const day = anchorDayOfMonth ?? from.getUTCDate();
      assertInteger('anchorDayOfMonth', day);
      if (day < 1 || day > 31) throw new RangeError(`anchorDayOfMonth must be 1 to 31, got ${day}`);
      const months = interval === 'year' ? count * 12 : count;
      const total = from.getUTCFullYear() * 12 + from.getUTCMonth() + months;
      const year = Math.floor(total / 12);
      const month = total - year * 12;
      const result = new Date(from.getTime());
      result.setUTCFullYear(year, month, Math.min(day, daysInMonth(year, month)));
      return result;
    }
  }
}

/**
 * The trial and the first charge. `trialEnd` (the request's `trial_end`) wins over
 * `trialPeriodDays` (`plan.trial_period_days`, whole 24 h days from `created`). No trial —
 * neither given, 0 days, or a `trialEnd` not after `created` — means the first charge is at
 * `created`; callers that must refuse a past `trial_end` do so before calling this.
 */
export function firstChargeAt(opts: { created: Date; trialEnd?: Date | null; trialPeriodDays?: number | null }): FirstCharge {
  const { created, trialEnd, trialPeriodDays } = opts;
  let end: Date | null = null;
  if (trialEnd) {
    end = trialEnd.getTime() > created.getTime() ? new Date(trialEnd.getTime()) : null;
  } else if (trialPeriodDays != null && trialPeriodDays > 0) {
    assertInteger('trialPeriodDays', trialPeriodDays);
    end = new Date(created.getTime() + trialPeriodDays * DAY_MS);
  }
  return end
    ? { trialStart: new Date(created.getTime()), trialEnd: end, chargeAt: end }
    : { trialStart: null, trialEnd: null, chargeAt: new Date(created.getTime()) };
}

/**
 * Parses a `plan.billing_cycle_anchor` or `trial_end` string: an ISO 8601 date
 * (`2026-03-15`, meaning 00:00 UTC that day) or date-time with `Z` or an offset.
 * @throws RangeError if the string is not such a date.
 */
export function parseIsoInstant(value: string): Date {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not an ISO 8601 date or date-time: ${value}`);
  return date;
}

/**
 * The calendar of one subscription. `plan.billing_cycle_anchor` (string or Date) aligns the
 * renewals to its day of month and time of day (see `nthPeriod`); `trialEnd` is the
 * request's `trial_end`, which wins over `plan.trial_period_days`.
 */
export function buildSchedule(opts: {
  created: Date;
  plan: PlanCadence & {
    trial_period_days?: number | null;
    billing_cycle_anchor?: string | Date | null;
  };
  trialEnd?: Date | string | null;
}): BillingSchedule {
  const { created, plan } = opts;
  assertCadence(plan);
  const trialEnd = typeof opts.trialEnd === 'string' ? parseIsoInstant(opts.trialEnd) : (opts.trialEnd ?? null);
  const first = firstChargeAt({ created, trialEnd, trialPeriodDays: plan.trial_period_days });
  const rawAnchor = plan.billing_cycle_anchor;
  const anchor = typeof rawAnchor === 'string' ? parseIsoInstant(rawAnchor) : (rawAnchor ?? null);
  return {
    origin: first.chargeAt,
    plan: { interval: plan.interval, interval_time: plan.interval_time },
    anchor: anchor ? new Date(anchor.getTime()) : null,
    trialStart: first.trialStart,
    trialEnd: first.trialEnd,
  };
}

/** Grid point m: `base + m × step`, always computed from `base`. */
function gridPoint(base: Date, plan: PlanCadence, m: number): Date {
  return addInterval(base, plan.interval, m * plan.interval_time, base.getUTCDate());
}

/** Rough number of whole steps from `base` to `at` (may be off by one either way). */
function estimateSteps(base: Date, plan: PlanCadence, at: Date): number {
  if (plan.interval === 'day' || plan.interval === 'week') {
    const stepMs = (plan.interval === 'day' ? 1 : 7) * DAY_MS * plan.interval_time;
    return Math.floor((at.getTime() - base.getTime()) / stepMs);
  }
  const months = (at.getUTCFullYear() - base.getUTCFullYear()) * 12 + (at.getUTCMonth() - base.getUTCMonth());
  return Math.floor(months / ((plan.interval === 'year' ? 12 : 1) * plan.interval_time));
}

/** The smallest m ≥ `min` whose grid point is strictly after `at`. */
function firstGridIndexAfter(base: Date, plan: PlanCadence, at: Date, min: number): number {
  let m = Math.max(min, estimateSteps(base, plan, at) - 1);
  while (m > min && gridPoint(base, plan, m - 1).getTime() > at.getTime()) m--;
  while (gridPoint(base, plan, m).getTime() <= at.getTime()) m++;
  return m;
}

/** The grid of a schedule and the index of the grid point that ends paid period 0. */
function grid(schedule: Pick<BillingSchedule, 'origin' | 'plan' | 'anchor'>): { base: Date; firstEnd: number } {
  assertCadence(schedule.plan);
  const base = schedule.anchor ?? schedule.origin;
  return { base, firstEnd: firstGridIndexAfter(base, schedule.plan, schedule.origin, 0) };
}

/**
 * Paid period `k` (0 = the first charge) as [start, end), computed from the schedule's grid
 * each time.
 *
 * Without an anchor the grid is the origin: period k = [origin + k·step, origin + (k+1)·step).
 * With a billing_cycle_anchor the grid is `anchor + m·step`; period 0 runs from the origin to
 * the first grid point strictly after it (a short first period when the anchor is later
 * than the origin, or when an earlier anchor's grid falls between intervals; a full one when
 * a grid point equals the origin), and every later period is one full step between grid
 * points. A future anchor therefore ends period 0 exactly at the anchor.
 * @throws RangeError if `k` is not an integer ≥ 0.
 */
export function nthPeriod(schedule: Pick<BillingSchedule, 'origin' | 'plan' | 'anchor'>, k: number): BillingPeriod {
  assertInteger('k', k);
  if (k < 0) throw new RangeError(`k must be at least 0, got ${k}`);
  const { base, firstEnd } = grid(schedule);
  const start = k === 0 ? new Date(schedule.origin.getTime()) : gridPoint(base, schedule.plan, firstEnd + k - 1);
  return { start, end: gridPoint(base, schedule.plan, firstEnd + k) };
}

/** `d` as an ISO 8601 calendar date in UTC, `YYYY-MM-DD` (the spec's `next_billing_date`). */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
