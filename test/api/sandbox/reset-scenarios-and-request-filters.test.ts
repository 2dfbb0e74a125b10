/**
 * CI steering through the control API, without a socket: a reset that also rewinds the clock,
 * scenarios loaded and removed at run time (checked by the `--scenario` loader, tried before
 * the start-up files), and a request log filtered by method, path, status and account with
 * keyset pages that keep the filters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKOUT, DIRECT, body, directPayment, headers, testApp, type PageBody } from '../../support/app.js';

type App = ReturnType<typeof testApp>['app'];

type Page<T> = PageBody<T>;
interface Logged {
  id: number;
  method: string;
  path: string;
  status: number;
  merchant_account_id: string | null;
}
interface Summary {
  name: string;
  source: string;
  origin: 'runtime' | 'startup';
  rules: Array<{ name: string }>;
}
interface Envelope {
  status: number;
  code: string;
  message: string;
  details: Array<{ type: string; pointer: string; message: string; location: string }>;
}

const jsonPost = (payload: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(payload),
});

/** A scenario that fails every USD payment of exactly 4242 (no start-up rule decides that amount). */
const DECLINE_4242 = {
  name: 'ci-runtime',
  description: 'loaded by a test',
  rules: [{ name: 'decline 42.42', match: { amount: 4242, currency: 'USD' }, steps: [{ outcome: 'FAILED' }] }],
};

async function create(app: App, overrides: Record<string, unknown> = {}): Promise<{ id: string; status: string; status_code: number }> {
  const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment(overrides)) });
  return { ...(await body<{ id: string; status: string }>(res)), status_code: res.status };
}

describe('POST /_sandbox/reset with rewind_clock', () => {
  it('keeps the clock offset by default, and sends the clock back to real time with {"rewind_clock": true}', async () => {
    const { app, core, lifecycle } = testApp();
    try {
      await app.request('/_sandbox/clock/advance', jsonPost({ seconds: 86_400 }));
      expect(core.clock.offsetMs()).toBeGreaterThanOrEqual(86_400_000);

      const plain = await app.request('/_sandbox/reset', { method: 'POST' });
      expect(plain.status).toBe(200);
      expect((await body<{ status: string; offset_seconds: number }>(plain)).offset_seconds).toBeGreaterThanOrEqual(86_400);

      const rewound = await app.request('/_sandbox/reset', jsonPost({ rewind_clock: true }));
      expect(rewound.status).toBe(200);
      const answer = await body<{ status: string; now: string; offset_seconds: number }>(rewound);
      expect(answer).toMatchObject({ status: 'reset', offset_seconds: 0 });
      expect(core.clock.offsetMs()).toBe(0);
      expect(Math.abs(Date.parse(answer.now) - Date.now())).toBeLessThan(60_000);
      expect(await body(await app.request('/_sandbox/clock'))).toMatchObject({ offset_seconds: 0 });
    } finally {
      await lifecycle.close();
    }
  });

  it('persists the rewound clock with --db across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-rewind-'));
    const db = join(dir, 'sandbox.db');
    try {
      const first = testApp({ db });
      await first.app.request('/_sandbox/clock/advance', jsonPost({ seconds: 3600 * 24 * 30 }));
      await first.lifecycle.close();
      const second = testApp({ db });
      expect(second.core.clock.offsetMs()).toBeGreaterThan(0); // the offset survived the restart
      expect((await second.app.request('/_sandbox/reset', jsonPost({ rewind_clock: true }))).status).toBe(200);
      await second.lifecycle.close();
      const third = testApp({ db });
      expect(await body(await third.app.request('/_sandbox/clock'))).toMatchObject({ offset_seconds: 0 });
      await third.lifecycle.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a bad body with the 400 envelope', async () => {
    const { app, lifecycle } = testApp();
    try {
      const res = await app.request('/_sandbox/reset', jsonPost({ rewind_clock: 'yes' }));
      expect(res.status).toBe(400);
      const error = await body<Envelope>(res);
      expect(error.details[0]).toMatchObject({ pointer: '/rewind_clock', location: 'body' });
    } finally {
      await lifecycle.close();
    }
  });
});

describe('scenarios loaded at run time', () => {
  it('are tried before the start-up scenarios, listed first, replaced by name and removed', async () => {
    const { app, lifecycle } = testApp();
    try {
      expect((await create(app, { amount: 4242, external_identifier: 'before' })).status).toBe('PENDING');

      const loaded = await app.request('/_sandbox/scenarios', jsonPost(DECLINE_4242));
      expect(loaded.status).toBe(201);
      expect(await body<Summary>(loaded)).toMatchObject({
        name: 'ci-runtime',
        origin: 'runtime',
        source: 'POST /_sandbox/scenarios',
        rules: [{ name: 'decline 42.42' }],
      });

      const listed = await body<{ scenarios: Summary[] }>(await app.request('/_sandbox/scenarios'));
      expect(listed.scenarios.map((s) => [s.name, s.origin])).toEqual([
        ['ci-runtime', 'runtime'],
        ['default', 'startup'],
      ]);

      const declined = await create(app, { amount: 4242, external_identifier: 'after' });
      expect(declined.status).toBe('FAILED');
      expect(await body(await app.request(`/_sandbox/transactions/${declined.id}`))).toMatchObject({
        scenario_rule: 'ci-runtime/decline 42.42',
      });

      // Tried before the start-up files: 4000000000000077 is a default magic card (succeeds later).
      const override = {
        name: 'ci-override',
        rules: [{ name: 'magic card approved now', match: { card_number: '4000000000000077' }, steps: [{ outcome: 'SUCCEEDED' }] }],
      };
      expect((await app.request('/_sandbox/scenarios', jsonPost(override))).status).toBe(201);
      const card = { type: 'card', number: '4000000000000077', expiration_date: '12/30', security_code: '123' };
      expect((await create(app, { payment_method: card, external_identifier: 'magic' })).status).toBe('SUCCEEDED');
      const order = await body<{ scenarios: Summary[] }>(await app.request('/_sandbox/scenarios'));
      expect(order.scenarios.map((s) => s.name)).toEqual(['ci-override', 'ci-runtime', 'default']);

      // The same name again replaces it (200) and moves it to the front.
      const replacement = {
        ...DECLINE_4242,
        rules: [{ name: 'approve 42.42', match: { amount: 4242 }, steps: [{ outcome: 'SUCCEEDED' }] }],
      };
      const replaced = await app.request('/_sandbox/scenarios', jsonPost(replacement));
      expect(replaced.status).toBe(200);
      expect((await create(app, { amount: 4242, external_identifier: 'replaced' })).status).toBe('SUCCEEDED');
      expect((await body<{ scenarios: Summary[] }>(await app.request('/_sandbox/scenarios'))).scenarios.map((s) => s.name)).toEqual([
        'ci-runtime',
        'ci-override',
        'default',
      ]);

      // A reset keeps them.
      await app.request('/_sandbox/reset', { method: 'POST' });
      expect((await body<{ scenarios: Summary[] }>(await app.request('/_sandbox/scenarios'))).scenarios).toHaveLength(3);

      // Removed by name; a start-up scenario cannot be.
      expect((await app.request('/_sandbox/scenarios/ci-runtime', { method: 'DELETE' })).status).toBe(204);
      expect((await create(app, { amount: 4242, external_identifier: 'removed' })).status).toBe('PENDING');
      const again = await app.request('/_sandbox/scenarios/ci-runtime', { method: 'DELETE' });
      expect(again.status).toBe(404);
      expect((await body<Envelope>(again)).code).toBe('not_found');
      const startup = await app.request('/_sandbox/scenarios/default', { method: 'DELETE' });
      expect(startup.status).toBe(404);
      expect((await body<Envelope>(startup)).message).toMatch(/loaded at start-up/);

      // All run-time ones at once.
      expect(await body(await app.request('/_sandbox/scenarios', { method: 'DELETE' }))).toEqual({ removed: 1 });
      expect((await body<{ scenarios: Summary[] }>(await app.request('/_sandbox/scenarios'))).scenarios.map((s) => s.name)).toEqual([
        'default',
      ]);
    } finally {
      await lifecycle.close();
    }
  });

  it("refuses a bad scenario with a 400 envelope: the loader's one-line message and a pointer per problem", async () => {
    const { app, lifecycle } = testApp();
    try {
      const bad = {
        name: 'broken',
        rules: [
          { name: 'slow success', match: {}, steps: [{ outcome: 'MAYBE' }] },
          { name: 'typo', mtach: {}, steps: [] },
        ],
      };
      const res = await app.request('/_sandbox/scenarios', jsonPost(bad));
      expect(res.status).toBe(400);
      const error = await body<Envelope>(res);
      expect(error.code).toBe('bad_request');
      expect(error.message).toMatch(
        /^POST \/_sandbox\/scenarios: rules\[1\] \("typo"\)\.mtach: unknown key \(did you mean "match"\?\) \(and \d+ more problems?\)$/,
      );
      expect(error.message).not.toContain('\n');
      const pointers = error.details.map((d) => d.pointer);
      expect(pointers).toContain('/rules/1/mtach');
      expect(pointers).toContain('/rules/0/steps/0/outcome');
      expect(error.details.every((d) => d.location === 'body')).toBe(true);

      const missing = await body<Envelope>(await app.request('/_sandbox/scenarios', jsonPost({ rules: [] })));
      expect(missing.details).toEqual([{ type: 'missing', pointer: '/name', message: 'missing (expected a string)', location: 'body' }]);

      const clash = await app.request('/_sandbox/scenarios', jsonPost({ name: 'default', rules: [] }));
      expect(clash.status).toBe(400);
      expect((await body<Envelope>(clash)).details[0]).toMatchObject({ pointer: '/name', location: 'body' });

      const notJson = await app.request('/_sandbox/scenarios', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": ',
      });
      expect(notJson.status).toBe(400);
      expect((await body<{ scenarios: Summary[] }>(await app.request('/_sandbox/scenarios'))).scenarios.map((s) => s.name)).toEqual([
        'default',
      ]);
    } finally {
      await lifecycle.close();
    }
  });
});

describe('GET /_sandbox/requests filtered', () => {
  async function seed(app: App): Promise<void> {
    for (let i = 0; i < 5; i++) expect((await create(app, { external_identifier: `order-${i}` })).status_code).toBe(201);
    await app.request('/v4/transactions?limit=2', { headers: headers() });
    await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify({ amount: -1 }) }); // 400
    await app.request('/v4/transactions', { headers: headers(CHECKOUT) });
    await app.request('/v4/transactions', { headers: { authorization: 'Bearer nope' } }); // 401, no account
  }
  const list = async (app: App, query: string): Promise<Page<Logged>> => {
    const res = await app.request(`/_sandbox/requests?${query}`);
    expect(res.status).toBe(200);
    return body<Page<Logged>>(res);
  };

  it('by method, exact path (query string ignored), path prefix, status or class, and account', async () => {
    const { app, lifecycle } = testApp();
    try {
      await seed(app);
      const created = await list(app, 'method=POST&path=/v4/transactions&status=201');
      expect(created.items).toHaveLength(5);
      expect(created.items.every((r) => r.method === 'POST' && r.path === '/v4/transactions' && r.status === 201)).toBe(true);

      expect((await list(app, 'method=post&path=/v4/transactions')).items).toHaveLength(6); // any case; the 400 too
      const gets = await list(app, 'method=GET&path=/v4/transactions');
      expect(gets.items.map((r) => r.path).sort()).toEqual(['/v4/transactions', '/v4/transactions', '/v4/transactions?limit=2']);
      expect((await list(app, `method=GET&path=/v4/transactions&account_id=${CHECKOUT.account_id}`)).items).toHaveLength(1);
      expect((await list(app, `account_id=${DIRECT.account_id}&status=4xx`)).items.map((r) => r.status)).toEqual([400]);
      expect((await list(app, 'status=401')).items.map((r) => r.merchant_account_id)).toEqual([null]);
      expect((await list(app, 'path_prefix=/v4/trans')).items).toHaveLength(9);
      expect((await list(app, 'path=/v4/trans')).items).toHaveLength(0);
      expect((await list(app, 'path_prefix=/v4/subscriptions')).items).toHaveLength(0);
    } finally {
      await lifecycle.close();
    }
  });

  it('keeps the filters across keyset pages, both ways', async () => {
    const { app, lifecycle } = testApp();
    try {
      await seed(app);
      const filter = 'method=POST&status=201';
      const first = await list(app, `${filter}&limit=2`);
      const second = await list(app, `${filter}&limit=2&cursor=${first.next_cursor}`);
      const third = await list(app, `${filter}&limit=2&cursor=${second.next_cursor}`);
      const ids = [...first.items, ...second.items, ...third.items].map((r) => r.id);
      expect(ids).toHaveLength(5);
      expect(new Set(ids).size).toBe(5);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(third.next_cursor).toBeNull();
      expect([...first.items, ...second.items, ...third.items].every((r) => r.status === 201)).toBe(true);
      const back = await list(app, `${filter}&limit=2&cursor=${third.previous_cursor}`);
      expect(back.items.map((r) => r.id)).toEqual(second.items.map((r) => r.id));
    } finally {
      await lifecycle.close();
    }
  });

  it('answers bad filters with the 400 envelope at location query, and an unknown account with 404', async () => {
    const { app, lifecycle } = testApp();
    try {
      for (const [query, pointer] of [
        ['status=abc', '/status'],
        ['status=6xx', '/status'],
        ['path=v4/transactions', '/path'],
        ['path=/v4/transactions?x=1', '/path'],
        ['method=P0ST', '/method'],
      ] as const) {
        const res = await app.request(`/_sandbox/requests?${query.replace('?x', '%3Fx')}`);
        expect(res.status, query).toBe(400);
        expect((await body<Envelope>(res)).details[0], query).toMatchObject({ pointer, location: 'query' });
      }
      expect((await app.request('/_sandbox/requests?account_id=acc_nope&method=POST')).status).toBe(404);
    } finally {
      await lifecycle.close();
    }
  });

  it('adds the path index in a new migration, and the migrated table still takes inserts', async () => {
    const { lifecycle, db } = testApp();
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(3);
      const plan = db
        .prepare("EXPLAIN QUERY PLAN SELECT * FROM request_log WHERE bare_path = '/v4/transactions' ORDER BY seq DESC LIMIT 20")
        .all() as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail).join(' ')).toContain('request_log_path');
    } finally {
      await lifecycle.close();
    }
  });
});
