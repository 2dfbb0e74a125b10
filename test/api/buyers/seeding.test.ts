/**
 * Buyers are seeded on their first read (faker is not loaded at start-up), with the time the
 * account was given them, so a listing is what seeding at once would have written: the same
 * buyers, ids, order and created_at whenever it is first read, after a reset as before, and
 * in a --db file across restarts even when nobody read them before the stop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKOUT, DIRECT, body, headers, testApp, type Creds } from '../../support/app.js';

type Buyer = { id: string; display_name: string; external_identifier: string | null; created_at: string };
type Page = { items: Buyer[]; next_cursor: string | null };

const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-buyers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function allBuyers(app: ReturnType<typeof testApp>['app'], creds: Creds = DIRECT): Promise<Buyer[]> {
  const out: Buyer[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await body<Page>(
      await app.request(`/v4/buyers?limit=20${cursor ? `&cursor=${cursor}` : ''}`, { headers: headers(creds) }),
    );
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

describe('buyers seeded on first read', () => {
  it('are written only when first read, with the time the account got them', async () => {
    const { app, db } = testApp({ seed: 11 });
    const stored = () => (db.prepare('SELECT count(*) AS n FROM buyers').get() as { n: number }).n;
    expect(stored()).toBe(0);
    const startedAt = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    const direct = await allBuyers(app);
    expect(direct).toHaveLength(45);
    expect(stored()).toBe(45); // only the account read
    // created over the 90 days before start-up, not before the read
    const newest = Math.max(...direct.map((b) => Date.parse(b.created_at)));
    expect(newest).toBeLessThanOrEqual(startedAt);
    expect(await allBuyers(app)).toEqual(direct); // seeded once
    expect(await allBuyers(app, CHECKOUT)).toHaveLength(45);
    expect(stored()).toBe(90);
  });

  it('read late or at once, the same buyers in the same order', async () => {
    const a = testApp({ seed: 12 });
    const b = testApp({ seed: 12 });
    const first = await allBuyers(a.app);
    await allBuyers(b.app, CHECKOUT);
    const later = await allBuyers(b.app);
    expect(later.map((x) => `${x.id} ${x.display_name} ${x.external_identifier}`)).toEqual(
      first.map((x) => `${x.id} ${x.display_name} ${x.external_identifier}`),
    );
  });

  it('a created account gets its buyers on first read, and a reset seeds them again', async () => {
    const { app, features } = testApp({ seed: 13 });
    const created = await features.accounts.service.create('direct');
    const creds = { api_key: created.api_key, account_id: created.account_id };
    const before = await allBuyers(app, creds);
    expect(before).toHaveLength(45);
    features.sandbox.service.reset();
    const after = await allBuyers(app, creds);
    expect(after.map((x) => x.id)).toEqual(before.map((x) => x.id));
    expect(await allBuyers(app)).toHaveLength(45);
  });

  it('a --db file closed before anyone read the buyers has them at the next start', async () => {
    const file = join(dir, 'buyers.db');
    const first = testApp({ seed: 14, db: file });
    await first.lifecycle.close();
    const second = testApp({ seed: 14, db: file });
    const stored = (second.db.prepare('SELECT count(*) AS n FROM buyers').get() as { n: number }).n;
    expect(stored).toBe(90);
    const listed = await allBuyers(second.app);
    expect(listed.map((x) => x.id)).toEqual((await allBuyers(testApp({ seed: 14 }).app)).map((x) => x.id));
    await second.lifecycle.close();
  });
});
