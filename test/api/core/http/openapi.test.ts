/** The OpenAPI document comes from the route schemas and marks the sandbox extensions. */
import { describe, expect, it } from 'vitest';
import { testApp } from '../../../support/app.js';

describe('GET /openapi.json', () => {
  it('documents every /v4 operation with its schemas and the control API as an extension', async () => {
    const { app } = testApp();
    const res = await app.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    // The API's paths are relative to the server <base>/v4 (the spec's base_url ends in /v4).
    for (const [path, method] of [
      ['/transactions', 'post'],
      ['/transactions', 'get'],
      ['/transactions/{transaction_id}', 'get'],
      ['/transactions/{transaction_id}/refunds', 'post'],
      ['/buyers', 'get'],
      ['/_sandbox/transactions/{id}/settle', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['TransactionCreate', 'Transaction', 'Refund', 'Buyer', 'Error']),
    );
    expect(JSON.stringify(doc.components.schemas.TransactionCreate)).toContain('Sandbox extension');
  });
});
