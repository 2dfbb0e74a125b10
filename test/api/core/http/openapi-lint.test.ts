/**
 * The OpenAPI document holds to Redocly's recommended rules (offline: the linter fetches
 * nothing), names every operation, states each operation's security, declares the
 * Idempotent-Replayed header and the webhooks, and documents exactly the routes the app serves.
 *
 * For routes added later, the pattern to follow: an `operationId` on every `createRoute`
 * (or `registerPath` beside a plain handler), `...controlOperation` on every /_sandbox route
 * and `...pageOperation` on pages (both give `security: []`), a 4XX response on every operation
 * that takes a parameter or a body.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paymentWebhookSchema, refundWebhookSchema } from '../../../../src/core/http/openapi/webhooks.js';
import { paymentWebhookBody, refundWebhookBody } from '../../../../src/features/transactions/webhook-bodies.js';
import { DIRECT, testApp } from '../../../support/app.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}
type PathItem = Partial<Record<(typeof METHODS)[number], Operation>> & { servers?: Array<{ url: string }> };
interface Document {
  servers: Array<{ url: string }>;
  paths: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
}

/** An operation of the emulated API: its path item is relative to the document's server (<base>/v4), not its own. */
const isApiPath = (doc: Document, path: string): boolean => doc.paths[path]?.servers === undefined;

async function openApiText(): Promise<string> {
  const { app } = testApp();
  const res = await app.request('/openapi.json');
  expect(res.status).toBe(200);
  return res.text();
}

function operations(items: Record<string, PathItem> = {}): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(items).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((method) => ({ path, method, op: item[method]! })),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the OpenAPI document under Redocly lint (recommended rules)', () => {
  it('has 0 errors and 0 warnings, and the linter fetches nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('the linter must not use the network'));
    const text = await openApiText();
    JSON.parse(text) as Document; // the document is JSON
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: '/openapi.json', config });
    const shown = (p: (typeof problems)[number]) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`;

    expect(problems.map(shown)).toEqual([]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('fails a document that breaks the rules (the lint is real)', async () => {
    const doc = JSON.parse(await openApiText()) as Document;
    delete doc.paths['/transactions']!.post!.operationId;
    delete doc.paths['/_sandbox/clock']!.get!.security;
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}`)).toEqual(
      expect.arrayContaining(['warn operation-operationId', 'error security-defined']),
    );
  });
});

describe('operations', () => {
  it('each has a unique operationId; /v4 needs the bearer token, everything else declares security: []', async () => {
    const doc = JSON.parse(await openApiText()) as Document;
    const all = [...operations(doc.paths), ...operations(doc.webhooks)];
    const ids = all.map(({ op }) => op.operationId);
    for (const { path, method, op } of all) expect(op.operationId, `${method} ${path}`).toMatch(/^[a-zA-Z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);

    for (const { path, method, op } of operations(doc.paths)) {
      expect(op.security, `${method} ${path}`).toEqual(isApiPath(doc, path) ? [{ bearerAuth: [] }] : []);
    }
  });

  it('declares Idempotent-Replayed on the 201 of every idempotent create', async () => {
    const doc = JSON.parse(await openApiText()) as Document;
    for (const path of ['/transactions', '/transactions/{transaction_id}/refunds', '/subscriptions']) {
      const created = doc.paths[path]!.post!.responses['201']!;
      expect(created.headers, path).toHaveProperty('Idempotent-Replayed');
    }
  });

  it('covers the payment page (HTML), the event stream and the document itself', async () => {
    const doc = JSON.parse(await openApiText()) as Document;
    expect(Object.keys(doc.paths['/pay/{id}']!.get!.responses['200']!.content!)).toEqual(['text/html']);
    expect(doc.paths['/pay/{id}/pay']!.post!.responses['303']).toBeDefined();
    expect(Object.keys(doc.paths['/_sandbox/events']!.get!.responses['200']!.content!)).toEqual(['text/event-stream']);
    expect(doc.paths['/openapi.json']!.get!.operationId).toBe('getOpenApiDocument');
    expect(doc.paths['/reference']!.get!.operationId).toBe('getApiReference');
  });
});

describe('webhooks (OpenAPI 3.1)', () => {
  it('describes the payment and refund webhooks with their signature headers and the acknowledgement', async () => {
    const doc = JSON.parse(await openApiText()) as Document & { components: { schemas: Record<string, unknown> } };
    for (const name of ['payment', 'refund']) {
      const op = doc.webhooks?.[name]?.post;
      expect(op, name).toBeDefined();
      expect((op!.parameters as Array<{ name: string; in: string; required: boolean }>).map((p) => [p.name, p.in, p.required])).toEqual([
        ['timestamp', 'header', true],
        ['timezone', 'header', true],
        ['signature', 'header', true],
      ]);
      expect(JSON.stringify(op!.responses['200'])).toContain('#/components/schemas/WebhookAck');
    }
    expect(JSON.stringify(doc.webhooks!.payment!.post!.requestBody)).toContain('#/components/schemas/PaymentWebhook');
    expect(JSON.stringify(doc.webhooks!.refund!.post!.requestBody)).toContain('#/components/schemas/RefundWebhook');
  });

  it('documents the bodies the sandbox really sends (formats.ts output passes the schemas, strictly)', () => {
    const at = new Date('2026-11-22T10:00:05Z');
    const payment = paymentWebhookBody({
      llTransactionId: 'tx_1',
      merchantTransactionId: 'order-1',
      amount: 1050,
      currency: 'USD',
      status: 'SUCCEEDED',
      at,
      timeZone: 'Asia/Bangkok',
    });
    expect(paymentWebhookSchema.strict().parse(payment)).toEqual(payment);
    const settled = paymentWebhookBody({
      llTransactionId: 'tx_2',
      merchantTransactionId: 'order-2',
      amount: 1050,
      currency: 'USD',
      status: 'FAILED',
      at,
      timeZone: 'UTC',
      settlementCurrency: 'THB',
    });
    expect(paymentWebhookSchema.strict().parse(settled)).toEqual(settled);
    const refund = refundWebhookBody({
      llTransactionId: 'rf_1',
      merchantTransactionId: 'rf_1',
      originalTransactionId: 'order-1',
      amount: 500,
      currency: 'JPY',
      reason: 'Customer request',
      at,
      timeZone: 'UTC',
    });
    expect(refundWebhookSchema.strict().parse(refund)).toEqual(refund);
    expect(Object.keys(paymentWebhookSchema.shape.payment_data.shape)).toEqual(Object.keys(payment.payment_data));
    expect(Object.keys(refundWebhookSchema.shape.refund_data.shape)).toEqual(Object.keys(refund.refund_data));
  });
});

describe('routes', () => {
  it('every route the app serves is in the document, and nothing documented is unserved', async () => {
    const { app } = testApp();
    const doc = JSON.parse(await (await app.request('/openapi.json')).text()) as Document;
    // The panel's static files (GET /*, public/) are documented as the panel itself, GET /.
    // /v4 paths are documented relative to the server <base>/v4; the spec's /buyers without
    // the prefix is the same operation as /v4/buyers, documented once.
    const asDocumented = (path: string): string =>
      path === '/*' ? '/' : path.replace(/^\/v4(?=\/)/, '').replace(/:([A-Za-z_]+)/g, '{$1}');
    const served = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${asDocumented(r.path)}`));
    const documented = new Set(operations(doc.paths).map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    expect([...served].filter((r) => !documented.has(r)).sort(), 'served but not documented').toEqual([]);
    expect([...documented].filter((r) => !served.has(r)).sort(), 'documented but not served').toEqual([]);
    expect(served.size).toBeGreaterThan(30);
  });
});

describe('servers: a client pointed at a production base_url (which ends in /v4) calls the right paths', () => {
  it('the document server is <base>/v4, the API paths are relative to it, every other path names <base> itself', async () => {
    const { app, core } = testApp();
    const doc = JSON.parse(await (await app.request('/openapi.json')).text()) as Document;
    expect(doc.servers).toEqual([expect.objectContaining({ url: `${core.baseUrl}/v4` })]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/v4'))).toEqual([]);
    const api = Object.keys(doc.paths)
      .filter((p) => isApiPath(doc, p))
      .sort();
    expect(api).toEqual([
      '/buyers',
      '/subscriptions',
      '/subscriptions/{subscription_id}',
      '/subscriptions/{subscription_id}/cancel',
      '/transactions',
      '/transactions/{transaction_id}',
      '/transactions/{transaction_id}/refunds',
    ]);
    for (const path of ['/_sandbox/health', '/pay/{id}', '/openapi.json', '/reference', '/']) {
      expect(doc.paths[path]!.servers, path).toEqual([expect.objectContaining({ url: core.baseUrl })]);
    }
  });
});

describe('every status the sandbox can answer is declared', () => {
  it('/v4: 429 and 503 (with Retry-After) and 431 everywhere, 413 on writes, 400 where there is a path id', async () => {
    const doc = JSON.parse(await openApiText()) as Document;
    for (const { path, method, op } of operations(doc.paths)) {
      expect(Object.keys(op.responses), `${method} ${path}`).toContain('431');
      if (!isApiPath(doc, path)) continue;
      const statuses = Object.keys(op.responses);
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429', '503']));
      expect(op.responses['429']!.headers, `${method} ${path}`).toHaveProperty('Retry-After');
      expect(op.responses['503']!.headers, `${method} ${path}`).toHaveProperty('Retry-After');
      if (method === 'post') expect(statuses, `${method} ${path}`).toContain('413');
      if (path.includes('_id}')) {
        const id = (op.parameters as Array<{ in: string; name: string; schema: { format?: string } }>).find((p) => p.in === 'path')!;
        expect(id.schema.format, `${method} ${path}`).toBe('uuid');
      }
    }
  });

  it('/_sandbox writes: 413 and 415', async () => {
    const doc = JSON.parse(await openApiText()) as Document;
    const writes = operations(doc.paths).filter(({ path, method }) => path.startsWith('/_sandbox/') && method !== 'get');
    expect(writes.length).toBeGreaterThan(5);
    for (const { path, method, op } of writes)
      expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['413', '415']));
  });

  it('the statuses the sandbox really answers on /v4 are the declared ones', async () => {
    const { app, core } = testApp();
    const doc = JSON.parse(await (await app.request('/openapi.json')).text()) as Document;
    const auth = { authorization: `Bearer ${DIRECT.api_key}`, 'x-merchant-account-id': DIRECT.account_id };
    const id = '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5';
    for (const { path, method, op } of operations(doc.paths).filter(({ path }) => isApiPath(doc, path))) {
      const url = `/v4${path.replace(/\{[a-z_]+\}/, id)}`;
      const malformed = `/v4${path.replace(/\{[a-z_]+\}/, 'abc')}`;
      const asked: Array<[string, RequestInit]> = [
        [url, { method, headers: { ...auth, 'x-sandbox-fault': '503' } }],
        [url, { method, headers: { ...auth, 'x-sandbox-fault': '429' } }],
        [url, { method }],
        [
          url,
          {
            method,
            headers: auth,
            ...(method === 'post'
              ? { body: 'x'.repeat(core.options.bodyLimit + 1), headers: { ...auth, 'content-type': 'application/json' } }
              : {}),
          },
        ],
        [malformed, { method, headers: auth }],
      ];
      for (const [target, init] of asked) {
        const res = await app.request(target, init);
        expect(Object.keys(op.responses), `${method} ${target} answered ${res.status}`).toContain(String(res.status));
      }
    }
  });
});
