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
