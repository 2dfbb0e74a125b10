/**
 * What the control API and the report do for an account happens on the account's own clock:
 * the go-live report's windows (two creates of one order are a duplicate within 10 minutes of
 * that account's time, so an advance of the account's clock between them ends the window), and
 * a refund from the panel (stamped in the account's time, as one through /v4).
 */
import { describe, expect, it } from 'vitest';
import { DIRECT, body, directPayment, headers, testApp } from '../../support/app.js';

interface Finding {
  code: string;
  evidence: { count: number; transaction_ids: string[] };
}

describe("the go-live report's windows on an account's own clock", () => {
  it('an order created again after the account advanced 11 minutes is not a duplicate; one created again at once is', async () => {
    const { app } = testApp();
    const create = async (order: string): Promise<string> => {
      const res = await app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ external_identifier: order })),
      });
      expect(res.status).toBe(201);
      return (await body<{ id: string }>(res)).id;
    };
    const advanceOwn = async (seconds: number): Promise<void> => {
      const res = await app.request(`/_sandbox/accounts/${DIRECT.account_id}/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds }),
      });
      expect(res.status).toBe(200);
    };

    await create('order-advanced');
    await advanceOwn(11 * 60);
    await create('order-advanced');
    const again = [await create('order-at-once'), await create('order-at-once')];

    const report = await body<{ findings: Finding[] }>(await app.request(`/_sandbox/report?account_id=${DIRECT.account_id}`));
    const duplicate = report.findings.find((f) => f.code === 'duplicate_charge_risk');
    expect(duplicate?.evidence.count).toBe(1);
    expect(new Set(duplicate?.evidence.transaction_ids)).toEqual(new Set(again));
  });

  it("a refund from the panel is stamped on the transaction's account's clock", async () => {
    const { app } = testApp();
    const json = { 'content-type': 'application/json' };
    const advance = await app.request(`/_sandbox/accounts/${DIRECT.account_id}/clock/advance`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ seconds: 30 * 86_400 }),
    });
    expect(advance.status).toBe(200);
    const accountNow = Date.parse((await body<{ now: string }>(await app.request(`/_sandbox/accounts/${DIRECT.account_id}/clock`))).now);
    const created = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
    const { id } = await body<{ id: string }>(created);
    expect((await app.request(`/_sandbox/transactions/${id}/settle`, { method: 'POST', headers: json, body: '{}' })).status).toBe(200);
    const refunded = await app.request(`/_sandbox/transactions/${id}/refund`, { method: 'POST', headers: json, body: '{}' });
    expect(refunded.status).toBe(201);
    const refund = await body<{ created_at: string }>(refunded);
    // On the account's clock: 30 days ahead of the sandbox clock, not on it.
    expect(Math.abs(Date.parse(refund.created_at) - accountNow)).toBeLessThan(60_000);
  });
});
