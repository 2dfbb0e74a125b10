/**
 * The control API tells its clients what they need instead of leaving them to copy server
 * rules: the actions legal on a transaction or subscription now, the refundable amount, a
 * delivery's state and reference, and a month on the sandbox's calendar. Every control
 * response is described by a schema in /openapi.json (no free-form objects). Through the app;
 * a delivery's state over a real socket is in e2e/sandbox/control-api.
 */
import { describe, expect, it } from 'vitest';
import { createSubscription, directSubscription } from '../../support/subscriptions.js';
import { DIRECT, body, directPayment, headers, testApp } from '../../support/app.js';

type App = ReturnType<typeof testApp>['app'];
interface ControlTx {
  id: string;
  status: string;
  refunded_amount: number;
  refundable_amount: number;
  allowed_actions: string[];
  refunds: unknown[];
}

const post = (app: App, path: string, payload?: unknown) =>
  app.request(
    `/_sandbox${path}`,
    payload === undefined
      ? { method: 'POST' }
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) },
  );

async function pendingTransaction(app: App, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment(overrides)) });
  expect(res.status).toBe(201);
  return (await body<{ id: string }>(res)).id;
}

async function listed(app: App, id: string): Promise<ControlTx> {
  const page = await body<{ items: ControlTx[] }>(await app.request(`/_sandbox/transactions?account_id=${DIRECT.account_id}&limit=100`));
  return page.items.find((tx) => tx.id === id)!;
}

describe('control API: what can be done now', () => {
  it('a transaction carries allowed_actions and refundable_amount through its life, in lists, details and action answers', async () => {
    const { app, lifecycle } = testApp();
    try {
      const id = await pendingTransaction(app);
      expect(await listed(app, id)).toMatchObject({
        status: 'PENDING',
        allowed_actions: ['settle', 'fail'],
        refundable_amount: 0,
        refunds: [],
      });

      const settled = await body<ControlTx>(await post(app, `/transactions/${id}/settle`));
      expect(settled).toMatchObject({ status: 'SUCCEEDED', allowed_actions: ['refund'], refundable_amount: 1050 });

      expect((await post(app, `/transactions/${id}/refund`, { amount: 250 })).status).toBe(201);
      expect(await listed(app, id)).toMatchObject({ refunded_amount: 250, refundable_amount: 800, allowed_actions: ['refund'] });
      const detail = await body<ControlTx & { deliveries: unknown[]; scenario_rule: string | null }>(
        await app.request(`/_sandbox/transactions/${id}`),
      );
      expect(detail).toMatchObject({ refundable_amount: 800, allowed_actions: ['refund'], scenario_rule: null });
      expect(detail.refunds).toHaveLength(1);

      expect((await post(app, `/transactions/${id}/refund`)).status).toBe(201);
      expect(await listed(app, id)).toMatchObject({ refunded_amount: 1050, refundable_amount: 0, allowed_actions: [] });

      const failedId = await pendingTransaction(app, { external_identifier: 'order-fail' });
      expect(await body<ControlTx>(await post(app, `/transactions/${failedId}/fail`))).toMatchObject({
        status: 'FAILED',
        allowed_actions: [],
        refundable_amount: 0,
      });
    } finally {
      await lifecycle.close();
    }
  });

  it('a subscription carries allowed_actions and next_charge_at; cancelling empties both', async () => {
    const { app, lifecycle } = testApp();
    try {
      const created = await createSubscription(app, directSubscription());
      type Sub = { id: string; status: string; allowed_actions: string[]; next_charge_at: string | null; charges: ControlTx[] };
      const page = await body<{ items: Sub[] }>(await app.request(`/_sandbox/subscriptions?account_id=${DIRECT.account_id}`));
      const sub = page.items.find((s) => s.id === created.id)!;
      expect(sub).toMatchObject({ status: 'active', allowed_actions: ['cancel'] });
      expect(sub.next_charge_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(sub.charges[0]).toHaveProperty('allowed_actions');

      const cancelled = await body<Sub>(await post(app, `/subscriptions/${String(created.id)}/cancel`));
      expect(cancelled).toMatchObject({ status: 'cancelled', allowed_actions: [], next_charge_at: null });
    } finally {
      await lifecycle.close();
    }
  });

  it('POST /_sandbox/clock/advance takes calendar months (Jan 31 + 1 month = the last day of February) and refuses seconds and months together', async () => {
    const { app, core, lifecycle } = testApp();
    try {
      // Move the clock to the next 31 January 10:00 UTC.
      const now = new Date(core.clock.nowMs());
      const target = Date.UTC(now.getUTCFullYear() + 1, 0, 31, 10, 0, 0);
      expect((await post(app, '/clock/advance', { seconds: (target - core.clock.nowMs()) / 1000 })).status).toBe(200);
      const res = await post(app, '/clock/advance', { months: 1 });
      expect(res.status).toBe(200);
      const advanced = await body<{ now: string }>(res);
      const year = now.getUTCFullYear() + 1;
      const lastOfFebruary = new Date(Date.UTC(year, 2, 0)).getUTCDate(); // 28, or 29 in a leap year
      expect(advanced.now.slice(0, 13)).toBe(`${year}-02-${lastOfFebruary}T10`);

      const both = await post(app, '/clock/advance', { months: 1, seconds: 60 });
      expect(both.status).toBe(400);
      expect(await body(both)).toMatchObject({
        code: 'bad_request',
        details: [{ message: 'Give either seconds or months', location: 'body' }],
      });
      const zero = await post(app, '/clock/advance', { months: 0 });
      expect((await body<{ details: Array<{ pointer: string }> }>(zero)).details[0]!.pointer).toBe('/months');
    } finally {
      await lifecycle.close();
    }
  });

  it('the request log carries the error envelope of a refused request, parsed', async () => {
    const { app, lifecycle } = testApp();
    try {
      await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify({ amount: -5, currency: 'USD' }) });
      const page = await body<{ items: Array<{ status: number; error: { code: string; details: Array<{ pointer: string }> } | null }> }>(
        await app.request(`/_sandbox/requests?account_id=${DIRECT.account_id}`),
      );
      const refused = page.items.find((r) => r.status === 400)!;
      expect(refused.error?.code).toBe('bad_request');
      expect(refused.error?.details.map((d) => d.pointer)).toContain('/amount');
    } finally {
      await lifecycle.close();
    }
  });
});

describe('/openapi.json describes every control response', () => {
  type Schema = {
    $ref?: string;
    type?: string | string[];
    properties?: Record<string, Schema>;
    additionalProperties?: boolean | Schema;
    items?: Schema;
    anyOf?: Schema[];
    oneOf?: Schema[];
    allOf?: Schema[];
  };

  /** Paths (JSON pointers) of object schemas with neither properties nor a typed additionalProperties. */
  function freeFormObjects(schema: Schema, components: Record<string, Schema>, at: string, seen = new Set<string>()): string[] {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      if (seen.has(name)) return [];
      return freeFormObjects(components[name]!, components, at, new Set([...seen, name]));
    }
    const found: string[] = [];
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('object')) {
      const extra = schema.additionalProperties;
      const typedExtra = typeof extra === 'object' && Object.keys(extra).length > 0;
      if (!schema.properties && !typedExtra) found.push(at);
      if (typedExtra) found.push(...freeFormObjects(extra, components, `${at}/*`, seen));
    }
    for (const [key, value] of Object.entries(schema.properties ?? {}))
      found.push(...freeFormObjects(value, components, `${at}/${key}`, seen));
    if (schema.items) found.push(...freeFormObjects(schema.items, components, `${at}/items`, seen));
    for (const list of [schema.anyOf, schema.oneOf, schema.allOf])
      for (const [i, s] of (list ?? []).entries()) found.push(...freeFormObjects(s, components, `${at}/${i}`, seen));
    return found;
  }

  it('every /_sandbox JSON response has a schema with properties, all the way down', async () => {
    const { app, lifecycle } = testApp();
    try {
      const doc = await body<{
        paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
        components: { schemas: Record<string, Schema> };
      }>(await app.request('/openapi.json'));
      const control = Object.entries(doc.paths).filter(([path]) => path.startsWith('/_sandbox/'));
      expect(control.length).toBeGreaterThan(10);
      const problems: string[] = [];
      let checked = 0;
      for (const [path, operations] of control) {
        for (const [method, operation] of Object.entries(operations)) {
          if (method === 'servers') continue; // the path item's own server (<base>), not an operation
          for (const [status, response] of Object.entries(operation.responses)) {
            for (const [type, media] of Object.entries(response.content ?? {})) {
              if (!type.includes('json')) continue;
              checked += 1;
              problems.push(...freeFormObjects(media.schema, doc.components.schemas, `${method.toUpperCase()} ${path} ${status}`));
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(20);
      expect(problems).toEqual([]);
      expect(doc.paths['/_sandbox/transactions']!.get!.responses['200']!.content!['application/json']!.schema.$ref).toBe(
        '#/components/schemas/ControlTransactionPage',
      );
      const propertiesOf = (schema: Schema): string[] => [
        ...Object.keys(schema.properties ?? {}),
        ...(schema.allOf ?? []).flatMap((s) => propertiesOf(s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!]! : s)),
      ];
      expect(propertiesOf(doc.components.schemas.ControlTransaction!)).toEqual(
        expect.arrayContaining(['status', 'allowed_actions', 'refundable_amount', 'refunds']),
      );
      expect(propertiesOf(doc.components.schemas.Delivery!)).toContain('state');
    } finally {
      await lifecycle.close();
    }
  });
});
