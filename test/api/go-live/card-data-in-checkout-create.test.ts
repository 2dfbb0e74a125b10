/**
 * A request body is scanned for card data once: the request log's scan of a checkout create's
 * body also tells the go-live report that it carries card data, and no layer scans the whole
 * body's text again.
 */
import { describe, expect, it, vi } from 'vitest';
import * as cardData from '../../../src/core/redaction/card-data.js';
import { CHECKOUT, headers, testApp } from '../../support/app.js';

describe('card data in a checkout create, scanned once', () => {
  it('raises card_data_in_checkout_mode from the request log scan, without scanning the body text again', async () => {
    const { app } = testApp();
    const body = {
      amount: 1050,
      currency: 'USD',
      return_url: 'https://shop.example/back',
      metadata: { note: 'card 4111 1111 1111 1111' },
    };
    const text = JSON.stringify(body);
    const spy = vi.spyOn(cardData, 'maskCardNumbers');
    try {
      const res = await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(CHECKOUT, { 'idempotency-key': 'card-once' }),
        body: text,
      });
      await res.arrayBuffer();
      // No scan over the body's whole text (a second pass beside the log's walk over each value).
      const scanned = spy.mock.calls.map(([t]) => t);
      expect(scanned.some((t) => t.includes('"metadata"'))).toBe(false);
      expect(scanned.filter((t) => t === 'card 4111 1111 1111 1111')).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
    const report = (await (await app.request(`/_sandbox/report?account_id=${CHECKOUT.account_id}`)).json()) as {
      findings: { code: string; evidence: { count: number } }[];
    };
    expect(report.findings.find((f) => f.code === 'card_data_in_checkout_mode')?.evidence.count).toBe(1);
  });
});
