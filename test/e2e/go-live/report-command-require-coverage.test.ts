/**
 * `payment-sandbox report --require-coverage` (the built CLI, dist/) over a real socket: exit 1
 * listing each required scenario not seen, 0 once a careful merchant's tests went through them
 * all, 2 with the valid names for an unknown one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Each run of the CLI is a process start, and the careful journey many requests: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
import { startServer, type RunningServer } from '../../../src/server.js';
import { runReport } from '../../support/processes.js';
import { carefulJourney, createAccount, type CreatedAccount } from '../../support/go-live-journeys.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';
import { directPayment } from '../../support/app.js';

let server: RunningServer;
let receiver: Receiver;
let careful: CreatedAccount;
let fresh: CreatedAccount;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServer({ port: 0, ticker: false, notificationUrl: receiver.url });
  ({ account: careful } = await carefulJourney(server.url, receiver));
  fresh = await createAccount(server.url, 'direct', 'untested');
  // The untested shop's one payment, settled: payment_succeeded seen, the rest of the set not.
  const res = await fetch(`${server.url}/v4/transactions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${fresh.api_key}`,
      'x-merchant-account-id': fresh.account_id,
      'content-type': 'application/json',
      'idempotency-key': 'untested-1',
    },
    body: JSON.stringify(
      directPayment({ payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/40', security_code: '123' } }),
    ),
  });
  expect(res.status, await res.text()).toBe(201);
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

describe('payment-sandbox report --require-coverage', () => {
  it('exits 1 listing each recommended scenario the account never went through', async () => {
    const run = await runReport(['--sandbox-url', server.url, '--account', fresh.account_id, '--require-coverage', 'recommended']);
    expect(run.code, run.err).toBe(1);
    const missing = [...run.out.matchAll(/ERROR\s+coverage_missing\s+\[account [^\]]+\]\n\s+.*required scenario (\w+) was not seen/g)].map(
      (m) => m[1],
    );
    expect(missing).toEqual(['payment_failed', 'refund', 'webhook_retry', 'webhook_duplicate', 'webhook_bad_signature']);
    expect(run.out).toContain('fix: Create a payment and fail it');
  });

  it('exits 0 when every required scenario was seen', async () => {
    const run = await runReport([
      '--sandbox-url',
      server.url,
      '--account',
      careful.account_id,
      '--require-coverage',
      'recommended,api_fault',
    ]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).not.toContain('coverage_missing');
  });

  it('exits 2 for an unknown scenario, listing the valid names', async () => {
    const run = await runReport(['--sandbox-url', server.url, '--require-coverage', 'payment_succeeded,webhook_badsig']);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toContain('"webhook_badsig"');
    expect(run.err).toContain('valid names are recommended, payment_succeeded, payment_failed');
  });
});
