/**
 * The subscription life cycle on the sandbox clock: renewals over a year in one advance,
 * trials, past_due → cancelled after plan.payment_attempts, recovery, failed first charges,
 * month ends and billing_cycle_anchor, other intervals, free renewals.
 */
import { describe, expect, it } from 'vitest';
import { RENEWAL_RETRY_SECONDS } from '../../../src/features/subscriptions/subscriptions.js';
import { testApp as baseTestApp } from '../../support/app.js';
import { memoryWebhooks } from '../../support/memory-receiver.js';
import {
  DAY,
  advance,
  advanceTo,
  createSubscription,
  day,
  directSubscription as baseSubscription,
  getSubscription,
  plusMonths,
  withCharges,
  withPath,
  type Json,
} from '../../support/subscriptions.js';

const plan = (overrides: Json = {}): Json => ({ name: 'Gold', currency: 'USD', amount: 900, interval: 'month', ...overrides });

// Webhooks are checked elsewhere; here they go to one acknowledging in-memory receiver (the
// sandbox's default notification URL), so no delivery retries slow the clock down.
const net = memoryWebhooks();
const receiver = net.receiver();
const testApp = () => baseTestApp({ notificationUrl: receiver.url }, { webhookPoster: net.poster });
const directSubscription = (overrides: Json = {}): Json =>
  withPath(baseSubscription(overrides), ['payment_method', 'webhooks_url'], undefined);
const summary = (charges: Json[]) => charges.map((c) => [day(c.created_at), c.status, c.amount, c.external_identifier]);

describe('renewals', () => {
  it('a year of monthly renewals in one clock advance: 12 charges, in order, on the right dates', async () => {
    const { app, core } = testApp();
    const sub = await createSubscription(app, directSubscription());
    const created = new Date(String(sub.created));
    await advanceTo(app, core, plusMonths(created, 12));
    const { charges, ...now } = await withCharges(app, sub.id);
    expect(charges).toHaveLength(13);
    const expected = [[day(created), 'SUCCEEDED', 1000, 'sub-0001.period-0']];
    for (let k = 1; k <= 12; k++) expected.push([day(plusMonths(created, k)), 'SUCCEEDED', 900, `sub-0001.period-${k}`]);
    expect(summary(charges)).toEqual(expected);
    // Each renewal happened at its instant (to the millisecond the clock stopped there).
    for (let k = 1; k <= 12; k++) {
      expect(new Date(String(charges[k]!.created_at)).getTime() - plusMonths(created, k).getTime()).toBeLessThan(1000);
    }
    expect(now).toMatchObject({
      status: 'active',
      current_period_start: plusMonths(created, 12).toISOString().replace('Z', '+00:00'),
      current_period_end: plusMonths(created, 13).toISOString().replace('Z', '+00:00'),
      next_billing_date: day(plusMonths(created, 13)),
    });
  });

  it('interval week × interval_time 2 and interval year', async () => {
    const { app } = testApp();
    const fortnightly = await createSubscription(
      app,
      directSubscription({ external_identifier: 'w', plan: plan({ interval: 'week', interval_time: 2 }) }),
    );
    const yearly = await createSubscription(app, directSubscription({ external_identifier: 'y', plan: plan({ interval: 'year' }) }));
    const created = new Date(String(fortnightly.created));
    expect(fortnightly.next_billing_date).toBe(day(new Date(created.getTime() + 14 * DAY * 1000)));
    expect(yearly.next_billing_date).toBe(day(plusMonths(new Date(String(yearly.created)), 12)));
    await advance(app, 15 * 7 * DAY);
    const weeks = (await withCharges(app, fortnightly.id)).charges;
    expect(weeks.map((c) => day(c.created_at))).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((n) => day(new Date(created.getTime() + n * 14 * DAY * 1000))),
    );
    expect((await withCharges(app, yearly.id)).charges).toHaveLength(1);
  });

  it('a free plan (amount 0) renews without charges', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription({ plan: plan({ amount: 0 }) }));
    await advance(app, 65 * DAY);
    const after = await withCharges(app, sub.id);
    expect(after.charges).toHaveLength(1);
    expect(after.status).toBe('active');
    expect(after.next_billing_date).toBe(day(plusMonths(new Date(String(sub.created)), 3)));
  });
});

describe('trials', () => {
  it('plan.trial_period_days: no charge during the trial, the first charge when it ends', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription({ plan: plan({ trial_period_days: 14 }) }));
    const created = new Date(String(sub.created));
    const trialEnd = new Date(created.getTime() + 14 * DAY * 1000);
    expect(sub).toMatchObject({
      status: 'active',
      trial_start: sub.created,
      trial_end: trialEnd.toISOString().replace('Z', '+00:00'),
      current_period_start: sub.created,
      current_period_end: trialEnd.toISOString().replace('Z', '+00:00'),
      next_billing_date: day(trialEnd),
    });
    expect((await withCharges(app, sub.id)).charges).toEqual([]);
    await advance(app, 14 * DAY - 60);
    expect((await withCharges(app, sub.id)).charges).toEqual([]);
    await advance(app, 120);
    const after = await withCharges(app, sub.id);
    expect(summary(after.charges)).toEqual([[day(trialEnd), 'SUCCEEDED', 1000, 'sub-0001.period-0']]);
    expect(after).toMatchObject({
      status: 'active',
      current_period_start: trialEnd.toISOString().replace('Z', '+00:00'),
      next_billing_date: day(plusMonths(trialEnd, 1)),
      trial_end: trialEnd.toISOString().replace('Z', '+00:00'),
    });
    await advance(app, 31 * DAY);
    expect(summary((await withCharges(app, sub.id)).charges)[1]).toEqual([
      day(plusMonths(trialEnd, 1)),
      'SUCCEEDED',
      900,
      'sub-0001.period-1',
    ]);
  });

  it('trial_end wins over plan.trial_period_days', async () => {
    const { app, core } = testApp();
    const trialEnd = new Date(core.clock.nowMs() + 3 * DAY * 1000);
    trialEnd.setUTCMilliseconds(0);
    const sub = await createSubscription(
      app,
      directSubscription({ trial_end: trialEnd.toISOString(), plan: plan({ trial_period_days: 30 }) }),
    );
    expect(sub.trial_end).toBe(trialEnd.toISOString().replace('Z', '+00:00'));
    await advance(app, 3 * DAY + 1);
    expect(summary((await withCharges(app, sub.id)).charges)).toEqual([[day(trialEnd), 'SUCCEEDED', 1000, 'sub-0001.period-0']]);
  });

  it('a subscription cancelled during its trial is never charged', async () => {
    const { app, features } = testApp();
    const sub = await createSubscription(app, directSubscription({ plan: plan({ trial_period_days: 7 }) }));
    await app.request(`/_sandbox/subscriptions/${String(sub.id)}/cancel`, { method: 'POST' });
    await features.sandbox.service.advanceClock(60 * DAY);
    expect((await withCharges(app, sub.id)).charges).toEqual([]);
  });
});

describe('failed charges', () => {
  it(`a failed renewal makes it past_due, retried every ${RENEWAL_RETRY_SECONDS / DAY} day until plan.payment_attempts, then cancelled`, async () => {
    const { app, core } = testApp();
    const sub = await createSubscription(app, directSubscription({ plan: plan({ name: 'renewal-fails', payment_attempts: 3 }) }));
    const renewal = plusMonths(new Date(String(sub.created)), 1);
    await advanceTo(app, core, renewal);
    let now = await withCharges(app, sub.id);
    expect(now.status).toBe('past_due');
    expect(now.next_billing_date).toBe(day(new Date(renewal.getTime() + DAY * 1000)));
    expect(summary(now.charges).slice(1)).toEqual([[day(renewal), 'FAILED', 900, 'sub-0001.period-1']]);

    await advance(app, DAY);
    now = await withCharges(app, sub.id);
    expect(now.status).toBe('past_due');
    expect(
      summary(now.charges)
        .slice(1)
        .map((c) => c[3]),
    ).toEqual(['sub-0001.period-1', 'sub-0001.period-1.attempt-2']);

    await advance(app, DAY);
    now = await withCharges(app, sub.id);
    expect(now.status).toBe('cancelled');
    expect(summary(now.charges).slice(1)).toEqual([
      [day(renewal), 'FAILED', 900, 'sub-0001.period-1'],
      [day(new Date(renewal.getTime() + DAY * 1000)), 'FAILED', 900, 'sub-0001.period-1.attempt-2'],
      [day(new Date(renewal.getTime() + 2 * DAY * 1000)), 'FAILED', 900, 'sub-0001.period-1.attempt-3'],
    ]);
    await advance(app, 90 * DAY);
    expect((await withCharges(app, sub.id)).charges).toHaveLength(4);
  });

  it('plan.payment_attempts 1: the first failed renewal cancels', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription({ plan: plan({ name: 'renewal-fails', payment_attempts: 1 }) }));
    await advance(app, 32 * DAY);
    const now = await withCharges(app, sub.id);
    expect(now.status).toBe('cancelled');
    expect(now.charges.map((c) => c.status)).toEqual(['SUCCEEDED', 'FAILED']);
  });

  it('a retry that succeeds makes it active again, the calendar unchanged', async () => {
    const { app, core } = testApp();
    const sub = await createSubscription(app, directSubscription({ plan: plan({ name: 'renewal-recovers' }) }));
    const created = new Date(String(sub.created));
    await advanceTo(app, core, plusMonths(created, 1));
    expect((await getSubscription(app, sub.id)).status).toBe('past_due');
    await advance(app, DAY);
    const now = await withCharges(app, sub.id);
    expect(now.status).toBe('active');
    expect(now.charges.map((c) => c.status)).toEqual(['SUCCEEDED', 'FAILED', 'SUCCEEDED']);
    expect(now.next_billing_date).toBe(day(plusMonths(created, 2)));
  });

  it('a failed first charge makes it failed, with no retries', async () => {
    const { app } = testApp();
    const byPlan = await createSubscription(app, directSubscription({ plan: plan({ name: 'first-charge-fails' }) }));
    expect(byPlan.status).toBe('failed');
    const byCard = await createSubscription(
      app,
      directSubscription({
        external_identifier: 'declined',
        payment_method: { type: 'card', number: '4000000000000002', expiration_date: '12/30', security_code: '123' },
      }),
    );
    expect(byCard.status).toBe('failed');
    await advance(app, 90 * DAY);
    expect((await withCharges(app, byPlan.id)).charges.map((c) => c.status)).toEqual(['FAILED']);
    expect((await withCharges(app, byCard.id)).charges.map((c) => c.status)).toEqual(['FAILED']);
    const cancel = await app.request(`/_sandbox/subscriptions/${String(byPlan.id)}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(409);
  });

  it('a first charge scripted to settle later keeps the subscription waiting for it; settling by hand counts', async () => {
    const { app } = testApp();
    // Card 4000000000000077: the outcome comes 30 s later on the sandbox clock.
    const slow = directSubscription({
      payment_method: { type: 'card', number: '4000000000000077', expiration_date: '12/30', security_code: '123' },
    });
    const sub = await createSubscription(app, slow);
    expect((await withCharges(app, sub.id)).charges.map((c) => c.status)).toEqual(['PENDING']);
    await advance(app, 30);
    expect((await withCharges(app, sub.id)).charges.map((c) => c.status)).toEqual(['SUCCEEDED']);

    const byHand = await createSubscription(app, { ...slow, external_identifier: 'by-hand' });
    const [charge] = (await withCharges(app, byHand.id)).charges;
    await app.request(`/_sandbox/transactions/${String(charge!.id)}/fail`, { method: 'POST' });
    expect((await getSubscription(app, byHand.id)).status).toBe('failed');
    await advance(app, 60); // the scripted outcome finds it settled and is skipped
    expect((await withCharges(app, byHand.id)).charges.map((c) => c.status)).toEqual(['FAILED']);
  });
});

describe('month ends and billing_cycle_anchor', () => {
  it('created on 31 January: renews on the last day of shorter months, back on the 31st after', async () => {
    const { app, core } = testApp();
    const year = new Date(core.clock.nowMs()).getUTCFullYear() + 1;
    await advanceTo(app, core, new Date(Date.UTC(year, 0, 31, 10, 0, 0)));
    const sub = await createSubscription(app, directSubscription());
    expect(sub.next_billing_date).toBe(`${year}-02-${year % 4 === 0 ? 29 : 28}`);
    await advance(app, 125 * DAY);
    const dates = (await withCharges(app, sub.id)).charges.map((c) => day(c.created_at));
    expect(dates).toEqual([`${year}-01-31`, `${year}-02-${year % 4 === 0 ? 29 : 28}`, `${year}-03-31`, `${year}-04-30`, `${year}-05-31`]);
  });

  it('a billing_cycle_anchor on the 31st: a short first period, then month ends', async () => {
    const { app, core } = testApp();
    const now = new Date(core.clock.nowMs());
    const anchorYear = now.getUTCFullYear() + 1;
    // Move to 10 January, anchor on 31 January 09:00 UTC.
    await advanceTo(app, core, new Date(Date.UTC(anchorYear, 0, 10, 12)));
    const anchor = `${anchorYear}-01-31T09:00:00Z`;
    const sub = await createSubscription(app, directSubscription({ plan: plan({ billing_cycle_anchor: anchor }) }));
    expect(sub.current_period_end).toBe(`${anchorYear}-01-31T09:00:00.000+00:00`);
    expect(sub.next_billing_date).toBe(`${anchorYear}-01-31`);
    await advance(app, 80 * DAY);
    const after = await withCharges(app, sub.id);
    const feb = anchorYear % 4 === 0 ? 29 : 28;
    // To the second: the clock stops at each instant, real time flows on by a few ms.
    expect(after.charges.map((c) => String(c.created_at).slice(0, 19))).toEqual([
      `${anchorYear}-01-10T12:00:00`,
      `${anchorYear}-01-31T09:00:00`,
      `${anchorYear}-02-${feb}T09:00:00`,
      `${anchorYear}-03-31T09:00:00`,
    ]);
    expect(after.current_period_start).toBe(`${anchorYear}-03-31T09:00:00.000+00:00`);
    expect(after.current_period_end).toBe(`${anchorYear}-04-30T09:00:00.000+00:00`);
    expect(after.next_billing_date).toBe(`${anchorYear}-04-30`);
  });
});
