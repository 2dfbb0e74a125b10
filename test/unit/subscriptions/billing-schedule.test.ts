/**
 * Tests of the subscription billing calendar: interval arithmetic with month-end clamping,
 * trials, periods from the origin, billing_cycle_anchor alignment and next billing dates.
 */
import { describe, expect, it } from 'vitest';
import {
  addInterval,
  buildSchedule,
  firstChargeAt,
  isoDate,
  nthPeriod,
  parseIsoInstant,
  type BillingSchedule,
  type PlanCadence,
} from '../../../src/features/subscriptions/billing-schedule.js';

const d = (iso: string): Date => new Date(iso);
const iso = (date: Date): string => date.toISOString();
const monthly: PlanCadence = { interval: 'month', interval_time: 1 };

function periodStarts(schedule: Pick<BillingSchedule, 'origin' | 'plan' | 'anchor'>, count: number): string[] {
  return Array.from({ length: count }, (_, k) => iso(nthPeriod(schedule, k).start));
}

describe('addInterval', () => {
  it('adds days and weeks as exact 24 h multiples, keeping the time of day', () => {
    expect(iso(addInterval(d('2026-03-28T23:30:00.000Z'), 'day', 3))).toBe('2026-03-31T23:30:00.000Z');
    expect(iso(addInterval(d('2026-12-28T10:00:00.000Z'), 'week', 1))).toBe('2027-01-04T10:00:00.000Z');
    expect(iso(addInterval(d('2026-01-10T10:00:00.000Z'), 'day', -10))).toBe('2025-12-31T10:00:00.000Z');
  });

  it('clamps to the end of shorter months', () => {
    expect(iso(addInterval(d('2026-01-31T09:15:00.000Z'), 'month', 1))).toBe('2026-02-28T09:15:00.000Z');
    expect(iso(addInterval(d('2028-01-31T09:15:00.000Z'), 'month', 1))).toBe('2028-02-29T09:15:00.000Z');
    expect(iso(addInterval(d('2026-03-31T00:00:00.000Z'), 'month', 1))).toBe('2026-04-30T00:00:00.000Z');
    expect(iso(addInterval(d('2026-11-30T00:00:00.000Z'), 'month', 3))).toBe('2027-02-28T00:00:00.000Z');
  });

  it('returns to the anchor day when a later month allows it', () => {
    const feb = addInterval(d('2026-01-31T09:00:00.000Z'), 'month', 1);
    expect(iso(addInterval(feb, 'month', 1, 31))).toBe('2026-03-31T09:00:00.000Z');
    // Without the anchor day the clamped day would stick.
    expect(iso(addInterval(feb, 'month', 1))).toBe('2026-03-28T09:00:00.000Z');
  });

  it('moves years, clamping Feb 29 in non-leap years', () => {
    expect(iso(addInterval(d('2028-02-29T12:00:00.000Z'), 'year', 1))).toBe('2029-02-28T12:00:00.000Z');
    expect(iso(addInterval(d('2028-02-29T12:00:00.000Z'), 'year', 4))).toBe('2032-02-29T12:00:00.000Z');
    expect(iso(addInterval(d('2026-12-31T12:00:00.000Z'), 'month', -1))).toBe('2026-11-30T12:00:00.000Z');
  });

  it('refuses a non-integer count or an impossible anchor day', () => {
    expect(() => addInterval(d('2026-01-01T00:00:00Z'), 'month', 1.5)).toThrow(RangeError);
    expect(() => addInterval(d('2026-01-01T00:00:00Z'), 'month', 1, 32)).toThrow(RangeError);
  });
});

describe('firstChargeAt', () => {
  const created = d('2026-01-10T08:00:00.000Z');

  it('charges at creation without a trial', () => {
    expect(firstChargeAt({ created })).toEqual({ trialStart: null, trialEnd: null, chargeAt: created });
    expect(firstChargeAt({ created, trialPeriodDays: 0 }).trialEnd).toBeNull();
  });

  it('uses trial_period_days as whole days from creation', () => {
    const result = firstChargeAt({ created, trialPeriodDays: 14 });
    expect(result.trialStart).toEqual(created);
    expect(iso(result.trialEnd as Date)).toBe('2026-01-24T08:00:00.000Z');
    expect(result.chargeAt).toEqual(result.trialEnd);
  });

  it('lets trial_end win over trial_period_days', () => {
    const trialEnd = d('2026-02-01T00:00:00.000Z');
    const result = firstChargeAt({ created, trialEnd, trialPeriodDays: 30 });
    expect(result).toEqual({ trialStart: created, trialEnd, chargeAt: trialEnd });
  });

  it('treats a trial_end that is not after creation as no trial', () => {
    expect(firstChargeAt({ created, trialEnd: created, trialPeriodDays: 30 }).chargeAt).toEqual(created);
  });
});

describe('nthPeriod without an anchor', () => {
  it('renews 12 times from Jan 31 in a non-leap year without drifting', () => {
    const schedule = buildSchedule({ created: d('2026-01-31T10:00:00.000Z'), plan: monthly });
    expect(periodStarts(schedule, 13).map((s) => s.slice(0, 10))).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
      '2027-01-31',
    ]);
    expect(periodStarts(schedule, 13).every((s) => s.endsWith('T10:00:00.000Z'))).toBe(true);
  });

  it('renews 12 times from Jan 31 in a leap year', () => {
    const schedule = buildSchedule({ created: d('2028-01-31T00:00:00.000Z'), plan: monthly });
    expect(periodStarts(schedule, 13).map((s) => s.slice(0, 10))).toEqual([
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
      '2028-04-30',
      '2028-05-31',
      '2028-06-30',
      '2028-07-31',
      '2028-08-31',
      '2028-09-30',
      '2028-10-31',
      '2028-11-30',
      '2028-12-31',
      '2029-01-31',
    ]);
  });

  it('has contiguous periods: each ends where the next starts', () => {
    const schedule = buildSchedule({ created: d('2026-01-31T10:00:00.000Z'), plan: monthly });
    for (let k = 0; k < 24; k++) expect(nthPeriod(schedule, k).end).toEqual(nthPeriod(schedule, k + 1).start);
  });

  it('renews weekly', () => {
    const schedule = buildSchedule({ created: d('2026-12-24T18:00:00.000Z'), plan: { interval: 'week', interval_time: 1 } });
    expect(periodStarts(schedule, 4)).toEqual([
      '2026-12-24T18:00:00.000Z',
      '2026-12-31T18:00:00.000Z',
      '2027-01-07T18:00:00.000Z',
      '2027-01-14T18:00:00.000Z',
    ]);
    expect(isoDate(nthPeriod(schedule, 0).end)).toBe('2026-12-31');
  });

  it('renews every 2 days', () => {
    const schedule = buildSchedule({ created: d('2026-02-27T00:00:00.000Z'), plan: { interval: 'day', interval_time: 2 } });
    expect(periodStarts(schedule, 3).map((s) => s.slice(0, 10))).toEqual(['2026-02-27', '2026-03-01', '2026-03-03']);
  });

  it('renews yearly from Feb 29, back on Feb 29 in leap years', () => {
    const schedule = buildSchedule({ created: d('2028-02-29T12:00:00.000Z'), plan: { interval: 'year', interval_time: 1 } });
    expect(periodStarts(schedule, 6).map((s) => s.slice(0, 10))).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
      '2033-02-28',
    ]);
  });

  it('renews every 3 months', () => {
    const schedule = buildSchedule({ created: d('2026-11-30T09:00:00.000Z'), plan: { interval: 'month', interval_time: 3 } });
    expect(periodStarts(schedule, 5).map((s) => s.slice(0, 10))).toEqual([
      '2026-11-30',
      '2027-02-28',
      '2027-05-30',
      '2027-08-30',
      '2027-11-30',
    ]);
    expect(isoDate(nthPeriod(schedule, 0).end)).toBe('2027-02-28');
  });

  it('computes a far period directly from the origin', () => {
    const schedule = buildSchedule({ created: d('2026-01-31T10:00:00.000Z'), plan: monthly });
    expect(nthPeriod(schedule, 1000)).toEqual({ start: d('2109-05-31T10:00:00.000Z'), end: d('2109-06-30T10:00:00.000Z') });
  });

  it('refuses a negative or fractional period number', () => {
    const schedule = buildSchedule({ created: d('2026-01-31T10:00:00.000Z'), plan: monthly });
    expect(() => nthPeriod(schedule, -1)).toThrow(RangeError);
    expect(() => nthPeriod(schedule, 0.5)).toThrow(RangeError);
  });
});

describe('billing_cycle_anchor', () => {
  it('ends the first period at a future anchor, then runs full periods from it', () => {
    const schedule = buildSchedule({
      created: d('2026-01-10T08:00:00.000Z'),
      plan: { ...monthly, billing_cycle_anchor: '2026-02-01' },
    });
    expect(nthPeriod(schedule, 0)).toEqual({ start: d('2026-01-10T08:00:00.000Z'), end: d('2026-02-01T00:00:00.000Z') });
    expect(periodStarts(schedule, 4).slice(1)).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
    ]);
    expect(isoDate(nthPeriod(schedule, 0).end)).toBe('2026-02-01');
  });

  it('aligns a past anchor to the next aligned instant after the start', () => {
    const schedule = buildSchedule({
      created: d('2026-04-10T08:00:00.000Z'),
      plan: { ...monthly, billing_cycle_anchor: '2025-01-31T06:00:00Z' },
    });
    expect(nthPeriod(schedule, 0)).toEqual({ start: d('2026-04-10T08:00:00.000Z'), end: d('2026-04-30T06:00:00.000Z') });
    expect(periodStarts(schedule, 5).slice(1)).toEqual([
      '2026-04-30T06:00:00.000Z',
      '2026-05-31T06:00:00.000Z',
      '2026-06-30T06:00:00.000Z',
      '2026-07-31T06:00:00.000Z',
    ]);
  });

  it('gives a full first period when the start is exactly on the anchor grid', () => {
    const schedule = buildSchedule({
      created: d('2026-03-31T06:00:00.000Z'),
      plan: { ...monthly, billing_cycle_anchor: '2026-01-31T06:00:00Z' },
    });
    expect(nthPeriod(schedule, 0)).toEqual({ start: d('2026-03-31T06:00:00.000Z'), end: d('2026-04-30T06:00:00.000Z') });
  });

  it('aligns weekly plans to the anchor weekday and time', () => {
    const schedule = buildSchedule({
      created: d('2026-01-07T12:00:00.000Z'), // a Wednesday
      plan: { interval: 'week', interval_time: 1, billing_cycle_anchor: '2025-12-01T09:00:00Z' }, // a Monday
    });
    expect(periodStarts(schedule, 3)).toEqual(['2026-01-07T12:00:00.000Z', '2026-01-12T09:00:00.000Z', '2026-01-19T09:00:00.000Z']);
  });

  it('aligns multi-month plans to the anchor grid, not to the start', () => {
    const schedule = buildSchedule({
      created: d('2026-02-15T00:00:00.000Z'),
      plan: { interval: 'month', interval_time: 3, billing_cycle_anchor: '2026-01-01' },
    });
    expect(periodStarts(schedule, 3).map((s) => s.slice(0, 10))).toEqual(['2026-02-15', '2026-04-01', '2026-07-01']);
  });
});

describe('trials', () => {
  it('starts paid period 0 at the end of a trial_period_days trial', () => {
    const schedule = buildSchedule({ created: d('2026-01-17T10:00:00.000Z'), plan: { ...monthly, trial_period_days: 14 } });
    expect(schedule.trialStart).toEqual(d('2026-01-17T10:00:00.000Z'));
    expect(schedule.trialEnd).toEqual(d('2026-01-31T10:00:00.000Z'));
    expect(periodStarts(schedule, 3).map((s) => s.slice(0, 10))).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
  });

  it('accepts trial_end as a string, winning over trial_period_days', () => {
    const schedule = buildSchedule({
      created: d('2026-01-01T00:00:00.000Z'),
      plan: { ...monthly, trial_period_days: 30 },
      trialEnd: '2026-01-08T00:00:00+07:00',
    });
    expect(schedule.origin).toEqual(d('2026-01-07T17:00:00.000Z'));
  });

  it('combines a trial with an anchor: the anchor grid applies from the trial end', () => {
    const schedule = buildSchedule({
      created: d('2026-01-01T00:00:00.000Z'),
      plan: { ...monthly, trial_period_days: 7, billing_cycle_anchor: '2026-01-15' },
    });
    expect(nthPeriod(schedule, 0)).toEqual({ start: d('2026-01-08T00:00:00.000Z'), end: d('2026-01-15T00:00:00.000Z') });
  });
});

describe('parseIsoInstant and isoDate', () => {
  it('reads a bare date as midnight UTC and keeps offsets', () => {
    expect(parseIsoInstant('2026-03-15')).toEqual(d('2026-03-15T00:00:00.000Z'));
    expect(parseIsoInstant('2026-03-15T07:00:00+07:00')).toEqual(d('2026-03-15T00:00:00.000Z'));
    expect(() => parseIsoInstant('soon')).toThrow(RangeError);
  });

  it('formats a UTC calendar date', () => {
    expect(isoDate(d('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31');
    expect(isoDate(d('2027-01-01T06:00:00+07:00'))).toBe('2026-12-31');
  });
});
