/** The go-live report skips the requests of the conformance kit, which names itself in its `User-Agent`. */
import { describe, expect, it } from 'vitest';
import { DIRECT, directPayment, headers, testApp } from '../../support/app.js';

async function codesAfterKeylessCreate(userAgent: string): Promise<string[]> {
  const { app } = testApp();
  const res = await app.request('/v4/transactions', {
    method: 'POST',
    headers: headers(DIRECT, { 'user-agent': userAgent }),
    body: JSON.stringify(directPayment()),
  });
  expect(res.status).toBe(201);
  const live = await app.request('/v4/transactions', {
    headers: { authorization: 'Bearer sk_live_123', 'x-merchant-account-id': DIRECT.account_id, 'user-agent': userAgent },
  });
  expect(live.status).toBe(401);
  const report = (await (await app.request(`/_sandbox/report?account_id=${DIRECT.account_id}`)).json()) as { findings: { code: string }[] };
  return report.findings.map((f) => f.code);
}

describe('requests of the conformance kit', () => {
  it('are not counted: no missing_idempotency_key, no live_key_used', async () => {
    expect(await codesAfterKeylessCreate('payment-sandbox-conformance/0.1.0')).toEqual([]);
  });

  it('while the same requests from a merchant are', async () => {
    expect(await codesAfterKeylessCreate('shop/1.0 node-fetch')).toEqual(['live_key_used', 'missing_idempotency_key']);
  });
});

interface Report {
  findings: { code: string }[];
  coverage: { scenario: string; seen: boolean }[];
}

/** A payment created by `userAgent` (PENDING, or SUCCEEDED at once with card 4242…), then settled and refunded from the control API (as the panel does). */
async function reportAfterSettleAndRefund(userAgent: string, card: string): Promise<Report> {
  const { app } = testApp();
  const res = await app.request('/v4/transactions', {
    method: 'POST',
    headers: headers(DIRECT, { 'user-agent': userAgent, 'idempotency-key': `order-${card}` }),
    body: JSON.stringify(directPayment({ payment_method: { type: 'card', number: card, expiration_date: '12/40', security_code: '123' } })),
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  if (card !== '4242424242424242')
    expect(
      (
        await app.request(`/_sandbox/transactions/${id}/settle`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(200);
  const refund = await app.request(`/v4/transactions/${id}/refunds`, {
    method: 'POST',
    headers: headers(DIRECT, { 'user-agent': userAgent, 'idempotency-key': `refund-${card}` }),
    body: JSON.stringify({ amount: 100 }),
  });
  expect(refund.status).toBe(201);
  return (await (await app.request(`/_sandbox/report?account_id=${DIRECT.account_id}`)).json()) as Report;
}

const seen = (report: Report): string[] => report.coverage.filter((c) => c.seen).map((c) => c.scenario);

describe('what the conformance kit creates', () => {
  it('reaches its outcome and is refunded unheard: settled later, or succeeded at once in its own create', async () => {
    for (const card of ['4111111111111111', '4242424242424242']) {
      const report = await reportAfterSettleAndRefund('payment-sandbox-conformance/0.1.0', card);
      expect(report.findings, card).toEqual([]);
      expect(seen(report), card).toEqual([]);
    }
  });

  it('while a merchant’s payment settled from the panel counts as the merchant’s, with only what the merchant caused', async () => {
    const report = await reportAfterSettleAndRefund('shop/1.0 node-fetch', '4111111111111111');
    expect(seen(report)).toEqual(['payment_succeeded', 'refund', 'partial_refund']);
    // No notification URL anywhere: the merchant's own omission, and nothing else.
    expect(report.findings.map((f) => f.code)).toEqual(['no_webhook_target']);
  });
});
