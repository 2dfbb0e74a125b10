/**
 * Near 9999-12-31T23:59:59Z everything keeps working (no 500): with a `--db` file whose clock
 * is a day before the bound, a card payment is not declined as expired (its two-digit year read around
 * the clock's year), a daily subscription on the default test card charges, a
 * checkout payment's link expires after 9999, and the lists, the report and health answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../../src/sqlite-store.js';
import { CHECKOUT, DIRECT, directPayment, headers, testApp } from '../../../support/app.js';
import { createSubscription, directSubscription } from '../../../support/subscriptions.js';

const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-far-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
const DAY = 86_400;

describe('a clock near 9999-12-31T23:59:59Z', () => {
  it('approves cards, charges a daily subscription on the default card, makes links, reaches the bound, never answers 500', async () => {
    const file = join(dir, 'far.db');
    openStore(file, () => undefined).close();
    const db = new Database(file);
    db.prepare("INSERT INTO meta (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      String(LATEST_MS - 1.5 * DAY * 1000 - Date.now()),
    );
    db.close();
    const sandbox = testApp({ db: file });
    const { app } = sandbox;
    try {
      const json = async (path: string, init: RequestInit = {}) => {
        const res = await app.request(path, init);
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const paid = await json('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
      expect(paid.status).toBe(201);
      expect(paid.body.status).not.toBe('FAILED'); // not an expired card
      expect(String(paid.body.created_at)).toMatch(/^9999-12-30T/);

      const { payment_method: card, ...withoutCard } = directSubscription({
        plan: { name: 'Daily', currency: 'USD', amount: 900, interval: 'day' },
      });
      const { number: _n, expiration_date: _e, security_code: _s, ...noCardFields } = card as Record<string, unknown>;
      const sub = await createSubscription(app, { ...withoutCard, payment_method: noCardFields });
      expect(sub.status).toBe('active');

      const link = await json('/v4/transactions', {
        method: 'POST',
        headers: headers(CHECKOUT),
        body: JSON.stringify({ amount: 500, currency: 'EUR', return_url: 'https://shop.example/ok' }),
      });
      expect(link.status).toBe(201);
      expect(String(link.body.payment_url)).toContain('/pay/');

      const advanced = await json('/_sandbox/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 1.5 * DAY - 60, wait_for_webhooks: false }),
      });
      expect(advanced.status).toBe(200);
      expect(String(advanced.body.now)).toMatch(/^9999-12-31T23:5/);
      const charges = await json(`/_sandbox/subscriptions?account_id=${DIRECT.account_id}`);
      expect(charges.status).toBe(200);
      const renewed = await json(`/v4/subscriptions/${String(sub.id)}`, { headers: headers() });
      expect(renewed.status).toBe(200);
      expect(renewed.body.status).toBe('active');
      for (const path of ['/_sandbox/health', '/_sandbox/clock', `/_sandbox/report?account_id=${DIRECT.account_id}`]) {
        expect((await app.request(path)).status, path).toBe(200);
      }
      expect((await app.request('/v4/transactions', { headers: headers() })).status).toBe(200);
      expect((await app.request('/v4/transactions', { headers: headers(CHECKOUT) })).status).toBe(200);
    } finally {
      await sandbox.lifecycle.close();
    }
  });
});
