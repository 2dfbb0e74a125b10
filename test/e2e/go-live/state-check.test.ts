/**
 * The go-live report learns from the state check: once check-webhooks was given a state URL for a
 * webhook URL, every payment webhook that URL acknowledges is followed by a read of the order's
 * state, and a contradiction with the payment's outcome is a `webhook_state_mismatch` finding.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { goodHandler, type SampleHandler } from '../../support/webhook-handlers.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A handler that acknowledges every webhook and records nothing: its state shows no order paid. */
async function forgetfulHandler(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end('{"payment_status":null}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function settledPayment(sandbox: RunningSandbox, url: string, reference: string): Promise<string> {
  const res = await fetch(`${sandbox.apiUrl}/transactions`, {
    method: 'POST',
    headers: { ...sandbox.credentials.direct.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: 1050,
      currency: 'USD',
      external_identifier: reference,
      notification_url: url,
      payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
      browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'vitest' },
    }),
  });
  const tx = (await res.json()) as { id: string };
  await sandbox.settle(tx.id);
  await sandbox.waitForDelivery((d) => d.resource_id === tx.id && d.state === 'delivered');
  return tx.id;
}

const checkWith = (sandbox: RunningSandbox, url: string) =>
  fetch(`${sandbox.url}/_sandbox/check-webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, state_url: url.replace(/\/webhooks$/, '/orders') }),
  });

describe('the go-live report and the state URL', () => {
  it('a payment acknowledged but not applied is a webhook_state_mismatch error; a handler that applies it raises none', async () => {
    const sandbox = await startSandbox({ ticker: false });
    const forgetful = await forgetfulHandler();
    const good: SampleHandler = await goodHandler();
    cleanup.push(
      () => sandbox.stop(),
      () => forgetful.close(),
      () => good.close(),
    );
    expect((await checkWith(sandbox, forgetful.url)).status).toBe(200);
    expect((await checkWith(sandbox, good.url)).status).toBe(200);

    const applied = await settledPayment(sandbox, good.url, 'state-applied-1');
    const lost = await settledPayment(sandbox, forgetful.url, 'state-lost-1');
    await expect
      .poll(async () => (await sandbox.report()).findings.find((f) => f.code === 'webhook_state_mismatch'), { timeout: 10_000 })
      .toBeDefined();
    const finding = (await sandbox.report()).findings.find((f) => f.code === 'webhook_state_mismatch')!;
    expect(finding).toMatchObject({ severity: 'error', account_id: sandbox.credentials.direct.account_id });
    expect(finding.evidence.count).toBe(1);
    expect(finding.evidence.transaction_ids).toEqual([lost]);
    expect(finding.evidence.transaction_ids).not.toContain(applied);
    expect(finding.fix).toMatch(/before answering/);
  });

  it('without a state URL nothing is read and no such finding is made', async () => {
    const sandbox = await startSandbox({ ticker: false });
    const forgetful = await forgetfulHandler();
    cleanup.push(
      () => sandbox.stop(),
      () => forgetful.close(),
    );
    await settledPayment(sandbox, forgetful.url, 'no-state-1');
    await new Promise((r) => setTimeout(r, 300));
    expect((await sandbox.report()).findings.map((f) => f.code)).not.toContain('webhook_state_mismatch');
  });
});
