/**
 * The scenario engine at work: the default scenario's magic values end to end (outcome in
 * the create response, delays on the sandbox clock, refunds, simulated webhook failures,
 * each webhook checked at a verifying in-memory receiver), `--scenario` files tried before the default
 * one, renewal rules, steps that survive a restart, and a bad file stopping start-up with a
 * message that names the rule.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/app.js';
import { main } from '../../../src/cli.js';
import { ScenarioError, loadScenarioFile } from '../../../src/features/scenarios/load.js';
import { defaultScenarioPath } from '../../../src/core/config.js';
import type { ScenarioFileInput } from '../../../src/features/scenarios/schema.js';
import type { SandboxOptions } from '../../../src/core/config.js';
import { ACK, CHECKOUT, DIRECT, body, directPayment, headers, testApp as sandboxApp } from '../../support/app.js';
import { memoryWebhooks } from '../../support/memory-receiver.js';
import {
  advance,
  createSubscription,
  directSubscription,
  withCharges,
  withPath,
  type App,
  type Json,
} from '../../support/subscriptions.js';

const DEFAULT_SCENARIO_PATH = defaultScenarioPath();

const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const net = memoryWebhooks();
const receiver = net.receiver();
afterEach(() => {
  receiver.received.length = 0;
  receiver.respond = () => ACK;
});

/** A sandbox app whose webhooks reach `receiver`. */
const testApp = (options: Partial<SandboxOptions> = {}) => sandboxApp(options, { webhookPoster: net.poster });

let fileCount = 0;
/** Writes a scenario file and returns its path. */
function scenarioFile(content: ScenarioFileInput | string): string {
  const path = join(dir, `scenario-${++fileCount}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const card = (number: string) => ({ type: 'card', number, expiration_date: '12/30', security_code: '123' });

async function pay(app: App, overrides: Json = {}, creds = DIRECT): Promise<Json> {
  const res = await app.request('/v4/transactions', {
    method: 'POST',
    headers: headers(creds),
    body: JSON.stringify(directPayment(overrides)),
  });
  const json = await body(res);
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

async function transaction(app: App, id: unknown, creds = DIRECT): Promise<Json> {
  return body(await app.request(`/v4/transactions/${String(id)}`, { headers: headers(creds) }));
}

async function deliveriesOf(app: App, resourceId: unknown): Promise<Json[]> {
  const page = await body<{ items: Json[] }>(await app.request('/_sandbox/deliveries?limit=100'));
  return page.items.filter((d) => d.resource_id === resourceId);
}

const ruleOf = ({ db }: Pick<ReturnType<typeof testApp>, 'db'>, id: unknown): string | null =>
  (db.prepare('SELECT scenario_rule FROM transactions WHERE id = ?').get(id) as { scenario_rule: string | null }).scenario_rule;

/** A direct-mode subscription whose charges' webhooks go to the receiver. */
const subscription = (overrides: Json = {}): Json =>
  withPath(directSubscription(overrides), ['payment_method', 'webhooks_url'], receiver.url);

const hooksFor = (id: unknown) => receiver.received.filter((h) => (h.body as Json).ll_transaction_id === id);

describe('default scenario: magic values end to end', () => {
  it('card 4242 4242 4242 4242 succeeds at once: the create response says SUCCEEDED, a signed webhook follows', async () => {
    const { app, db } = testApp({ notificationUrl: receiver.url });
    const tx = await pay(app, { payment_method: card('4242424242424242') });
    expect(tx.status).toBe('SUCCEEDED');
    expect(ruleOf({ db }, tx.id)).toBe('default/card 4242424242424242 succeeds');
    const detail = (await (await app.request(`/_sandbox/transactions/${String(tx.id)}`)).json()) as Json;
    expect(detail.scenario_rule).toBe('default/card 4242424242424242 succeeds');
    const [hook] = await receiver.waitFor(1);
    expect(hook?.verified).toBe(true);
    expect((hook?.body as { payment_data: Json }).payment_data.payment_status).toBe('SUCCEEDED');
  });

  it('card 4000 0000 0000 0002 is declined at once', async () => {
    const { app } = testApp({ notificationUrl: receiver.url });
    const tx = await pay(app, { payment_method: card('4000000000000002') });
    expect(tx.status).toBe('FAILED');
    const [hook] = await receiver.waitFor(1);
    expect(hook?.verified).toBe(true);
    expect((hook?.body as { payment_data: Json }).payment_data.payment_status).toBe('FAILED');
  });

  it('amount 100003 stays PENDING, then SUCCEEDED 10 s later on the sandbox clock', async () => {
    const { app } = testApp({ notificationUrl: receiver.url });
    const tx = await pay(app, { amount: 100003 });
    expect(tx.status).toBe('PENDING');
    await advance(app, 9);
    expect((await transaction(app, tx.id)).status).toBe('PENDING');
    expect(hooksFor(tx.id)).toEqual([]);
    await advance(app, 1);
    expect((await transaction(app, tx.id)).status).toBe('SUCCEEDED');
    const [hook] = hooksFor(tx.id);
    expect(hook?.verified).toBe(true);
    expect((hook?.body as { payment_data: Json }).payment_data).toMatchObject({ payment_status: 'SUCCEEDED', payment_amount: '1000.03' });
  });

  it('card 4000 0000 0000 0341 succeeds, then is refunded in full 60 s later (refund webhook)', async () => {
    const { app } = testApp({ notificationUrl: receiver.url });
    const tx = await pay(app, { payment_method: card('4000000000000341') });
    expect(tx).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 0 });
    await advance(app, 59);
    expect((await transaction(app, tx.id)).refunded_amount).toBe(0);
    await advance(app, 1);
    expect((await transaction(app, tx.id)).refunded_amount).toBe(1050);
    const refundHook = receiver.received.find((h) => (h.body as Json).refund_data !== undefined);
    expect(refundHook?.verified).toBe(true);
    expect(refundHook?.body).toMatchObject({
      original_transaction_id: 'order-1001',
      refund_data: { refund_amount: 1050, refund_status: 'SUCCESS' },
    });
  });

  it('metadata sandbox_webhook_failures "3": three simulated 503s, then delivered on the retry schedule', async () => {
    const { app } = testApp({ notificationUrl: receiver.url });
    const tx = await pay(app, { metadata: { sandbox_webhook_failures: '3' } });
    expect(tx.status).toBe('SUCCEEDED');
    await advance(app, 1);
    expect(hooksFor(tx.id)).toEqual([]);
    // Retries after 10, 20 and 40 s: the fourth attempt reaches the merchant.
    await advance(app, 10 + 20 + 40);
    const [delivery] = await deliveriesOf(app, tx.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts_count: 4 });
    const attempts = delivery!.attempts as Json[];
    expect(attempts.map((a) => [a.response_status, a.ok])).toEqual([
      [503, false],
      [503, false],
      [503, false],
      [200, true],
    ]);
    expect(attempts[0]!.error).toMatch(/simulated/);
    expect(hooksFor(tx.id)).toHaveLength(1);
    expect(hooksFor(tx.id)[0]!.verified).toBe(true);
  });

  it('e-mail @decline.test works in checkout mode, where no card number reaches the API', async () => {
    const { app } = testApp();
    const tx = await pay(
      app,
      {
        payment_method: undefined,
        browser_info: undefined,
        return_url: 'https://merchant.example/back',
        customer: { email: 'bob@decline.test' },
      },
      CHECKOUT,
    );
    expect(tx.status).toBe('FAILED');
  });

  it('anything else stays PENDING for a hand, with nothing scheduled', async () => {
    const { app, db, features } = testApp();
    const tx = await pay(app);
    expect(tx.status).toBe('PENDING');
    expect(ruleOf({ db }, tx.id)).toBeNull();
    expect(features.scenarios.steps.forResource(String(tx.id))).toEqual([]);
    await advance(app, 86_400);
    expect((await transaction(app, tx.id)).status).toBe('PENDING');
  });

  it('every immediate card and amount rule of default.json does what its description says', async () => {
    const { app } = testApp();
    const rules = loadScenarioFile(DEFAULT_SCENARIO_PATH).rules;
    let n = 0;
    for (const rule of rules) {
      const outcome = rule.steps.find((s) => 'outcome' in s);
      if (!outcome || !('outcome' in outcome) || outcome.after_seconds !== 0 || rule.match.applies_to === 'subscription') continue;
      const overrides: Json = { external_identifier: `magic-${++n}` };
      if (rule.match.card_number) overrides.payment_method = card(rule.match.card_number);
      else if (typeof rule.match.amount === 'number') overrides.amount = rule.match.amount;
      else continue;
      const tx = await pay(app, overrides);
      expect(tx.status, rule.name).toBe(outcome.outcome);
      expect(rule.description, rule.name).toMatch(outcome.outcome === 'SUCCEEDED' ? /SUCCEEDED/ : /FAILED|declined/);
    }
    expect(n).toBeGreaterThanOrEqual(5);
  });
});

describe('--scenario files', () => {
  const ci: ScenarioFileInput = {
    name: 'ci',
    rules: [
      {
        name: 'override 4242',
        description: 'A file rule beats the default one',
        match: { card_number: '4242424242424242' },
        steps: [{ outcome: 'FAILED' }],
      },
      {
        name: 'slow EUR',
        match: { applies_to: 'transaction', currency: 'EUR', amount: { min: 5000 } },
        steps: [
          { outcome: 'SUCCEEDED', after_seconds: 300 },
          { refund: { amount: 500, reason: 'partial' }, after_seconds: 3600 },
        ],
      },
      { name: 'vip', match: { customer_email: '*@vip.example' }, steps: [{ outcome: 'SUCCEEDED' }, { webhook_failures: 1, status: 500 }] },
      { name: 'tagged', match: { metadata: { flow: 'manual-review' } }, steps: [{ outcome: 'FAILED', after_seconds: 60 }] },
      { name: 'flaky merchant', match: { metadata: { flow: 'flaky' } }, steps: [{ webhook_failures: 2, status: 502 }] },
      {
        name: 'second renewal fails',
        match: { applies_to: 'subscription', plan: { name: 'Bronze', interval: 'month' } },
        steps: [{ renewal_fails: [2] }],
      },
      {
        name: 'flaky renewals',
        match: { applies_to: 'subscription', plan: { name: 'Flaky' } },
        steps: [{ renewal_outcomes: ['FAILED', 'SUCCEEDED', 'FAILED'] }],
      },
    ],
  };

  it('rules of --scenario files are tried before the default scenario', async () => {
    const { app, db } = testApp({ scenario: [scenarioFile(ci)] });
    const tx = await pay(app, { payment_method: card('4242424242424242') });
    expect(tx.status).toBe('FAILED');
    expect(ruleOf({ db }, tx.id)).toBe('ci/override 4242');
    // Default rules still apply where the file has none.
    expect((await pay(app, { external_identifier: 'x', payment_method: card('5555555555554444') })).status).toBe('SUCCEEDED');
  });

  it('matches on currency and an amount range; outcome and a partial refund wait for the sandbox clock', async () => {
    const { app } = testApp({ scenario: [scenarioFile(ci)], notificationUrl: receiver.url });
    const small = await pay(app, { currency: 'EUR', amount: 4999 });
    const big = await pay(app, { currency: 'EUR', amount: 5000, external_identifier: 'eur-big' });
    expect([small.status, big.status]).toEqual(['PENDING', 'PENDING']);
    await advance(app, 299);
    expect((await transaction(app, big.id)).status).toBe('PENDING');
    await advance(app, 1);
    expect((await transaction(app, big.id)).status).toBe('SUCCEEDED');
    expect((await transaction(app, small.id)).status).toBe('PENDING');
    await advance(app, 3600);
    expect((await transaction(app, big.id)).refunded_amount).toBe(500);
    const refundHook = receiver.received.find((h) => (h.body as Json).original_transaction_id === 'eur-big');
    expect(refundHook?.body).toMatchObject({ refund_data: { refund_amount: 500, reason: 'partial' } });
  });

  it("matches customer e-mail wildcards and metadata; webhook_failures use the rule's status", async () => {
    const { app } = testApp({ scenario: [scenarioFile(ci)], notificationUrl: receiver.url });
    const vip = await pay(app, { customer: { email: 'Ann@VIP.example' } });
    expect(vip.status).toBe('SUCCEEDED');
    await advance(app, 11);
    const [delivery] = await deliveriesOf(app, vip.id);
    expect((delivery!.attempts as Json[]).map((a) => a.response_status)).toEqual([500, 200]);
    const tagged = await pay(app, { external_identifier: 't', metadata: { flow: 'manual-review', other: 'x' } });
    expect(tagged.status).toBe('PENDING');
    await advance(app, 60);
    expect((await transaction(app, tagged.id)).status).toBe('FAILED');
  });

  it('webhook_failures hold for outcomes and refunds set by hand too', async () => {
    const { app } = testApp({ scenario: [scenarioFile(ci)], notificationUrl: receiver.url });
    const tx = await pay(app, { external_identifier: 'flaky-1', metadata: { flow: 'flaky' } });
    expect(tx.status).toBe('PENDING');
    await app.request(`/_sandbox/transactions/${String(tx.id)}/settle`, { method: 'POST' });
    await app.request(`/_sandbox/transactions/${String(tx.id)}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":100}',
    });
    // The payment is acknowledged at +30 s; the refund's webhook waits for it, then fails at
    // +30 s and +40 s and is acknowledged at +60 s.
    await advance(app, 61);
    const deliveries = await deliveriesOf(app, tx.id);
    const payment = deliveries.find((d) => d.kind === 'payment')!;
    expect((payment.attempts as Json[]).map((a) => a.response_status)).toEqual([502, 502, 200]);
    const all = (await (await app.request('/_sandbox/deliveries')).json()) as { items: Json[] };
    const refund = all.items.find((d) => d.kind === 'refund')!;
    expect((refund.attempts as Json[]).map((a) => a.response_status)).toEqual([502, 502, 200]);
  });

  it('a scheduled outcome is skipped when a hand settled the payment first', async () => {
    const { app, features } = testApp({ scenario: [scenarioFile(ci)] });
    const tx = await pay(app, { metadata: { flow: 'manual-review' } });
    const settled = await app.request(`/_sandbox/transactions/${String(tx.id)}/settle`, { method: 'POST' });
    expect(settled.status).toBe(200);
    await advance(app, 120);
    expect((await transaction(app, tx.id)).status).toBe('SUCCEEDED');
    expect(features.scenarios.steps.forResource(String(tx.id)).map((s) => s.done)).toEqual(['skipped']);
  });

  it('renewal_fails: the named renewal fails on every attempt (past_due, then cancelled)', async () => {
    const { app } = testApp({ scenario: [scenarioFile(ci)], notificationUrl: receiver.url });
    const sub = await createSubscription(
      app,
      subscription({ plan: { name: 'Bronze', currency: 'USD', amount: 500, interval: 'month', payment_attempts: 2 } }),
    );
    await advance(app, 40 * 86_400);
    expect((await withCharges(app, sub.id)).status).toBe('active');
    await advance(app, 30 * 86_400);
    const now = await withCharges(app, sub.id);
    expect(now.status).toBe('cancelled');
    expect(now.charges.map((c) => [c.external_identifier, c.status])).toEqual([
      ['sub-0001.period-0', 'SUCCEEDED'],
      ['sub-0001.period-1', 'SUCCEEDED'],
      ['sub-0001.period-2', 'FAILED'],
      ['sub-0001.period-2.attempt-2', 'FAILED'],
    ]);
  });

  it('renewal_outcomes: successive renewal attempts in order, then success', async () => {
    const { app } = testApp({ scenario: [scenarioFile(ci)], notificationUrl: receiver.url });
    const sub = await createSubscription(app, subscription({ plan: { name: 'Flaky', currency: 'USD', amount: 500, interval: 'week' } }));
    await advance(app, 4 * 7 * 86_400);
    const now = await withCharges(app, sub.id);
    expect(now.charges.map((c) => [c.external_identifier, c.status])).toEqual([
      ['sub-0001.period-0', 'SUCCEEDED'],
      ['sub-0001.period-1', 'FAILED'],
      ['sub-0001.period-1.attempt-2', 'SUCCEEDED'],
      ['sub-0001.period-2', 'FAILED'],
      ['sub-0001.period-2.attempt-2', 'SUCCEEDED'],
      ['sub-0001.period-3', 'SUCCEEDED'],
      ['sub-0001.period-4', 'SUCCEEDED'],
    ]);
    expect(now.status).toBe('active');
  });

  it('webhook_failures of a subscription rule apply to every charge', async () => {
    const { app } = testApp({ notificationUrl: receiver.url });
    const sub = await createSubscription(app, subscription({ metadata: { sandbox_webhook_failures: '3' } }));
    await advance(app, 32 * 86_400);
    const { charges } = await withCharges(app, sub.id);
    expect(charges).toHaveLength(2);
    for (const charge of charges) {
      const [delivery] = await deliveriesOf(app, charge.id);
      expect(delivery).toMatchObject({ status: 'delivered', attempts_count: 4 });
    }
  });

  it('scheduled steps survive a restart with --db', async () => {
    const db = join(dir, 'restart.db');
    const first = createApp({ ticker: false, db });
    const tx = await pay(first.app, { amount: 100003 });
    await first.lifecycle.close();
    const second = createApp({ ticker: false, db });
    expect((await transaction(second.app, tx.id)).status).toBe('PENDING');
    await advance(second.app, 10);
    expect((await transaction(second.app, tx.id)).status).toBe('SUCCEEDED');
    await second.lifecycle.close();
  });

  it('GET /_sandbox/scenarios shows what is loaded, in matching order', async () => {
    const path = scenarioFile(ci);
    const { app } = testApp({ scenario: [path] });
    const res = await app.request('/_sandbox/scenarios');
    expect(res.status).toBe(200);
    const { scenarios } = await body<{ scenarios: { name: string; source: string; rules: { name: string; steps: unknown[] }[] }[] }>(res);
    expect(scenarios.map((s) => [s.name, s.source])).toEqual([
      ['ci', path],
      ['default', DEFAULT_SCENARIO_PATH],
    ]);
    expect(scenarios[0]!.rules[0]).toEqual({
      name: 'override 4242',
      description: 'A file rule beats the default one',
      match: { card_number: '4242424242424242' },
      steps: [{ outcome: 'FAILED', after_seconds: 0 }],
    });
    expect(scenarios[1]!.rules.map((r) => r.name)).toContain('card 4242424242424242 succeeds');
  });
});

describe('a bad scenario file', () => {
  const bad = {
    name: 'broken',
    rules: [
      { name: 'fine', match: {}, steps: [] },
      { name: 'slow success', match: { amount: 100 }, steps: [{ outcome: 'SUCCEDED', after_seconds: 5 }] },
    ],
  };

  it('makes createSandbox throw a ScenarioError naming the file and the rule', () => {
    const path = scenarioFile(JSON.stringify(bad));
    let error: unknown;
    try {
      createApp({ ticker: false, scenario: [path] });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    const message = (error as Error).message;
    expect(message).toContain(path);
    expect(message).toContain('rules[1] ("slow success").steps[0].outcome');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('stops the CLI with one line and exit code 1', async () => {
    const path = scenarioFile(JSON.stringify(bad));
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(await main(['--port', '0', '--scenario', path], {})).toBe(1);
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toMatch(
      new RegExp(
        `^payment-sandbox: .*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: rules\\[1\\] \\("slow success"\\)\\.steps\\[0\\]\\.outcome.*\\n$`,
      ),
    );
    expect(written.join('').trim().split('\n')).toHaveLength(1);
  });

  it('a missing --scenario file is refused too', () => {
    expect(() => createApp({ ticker: false, scenario: [join(dir, 'nope.json')] })).toThrow(/nope\.json: cannot read the file/);
  });
});
