/**
 * `payment-sandbox check-webhooks` through the CLI's `main` in this process, against sample
 * handlers on loopback: a line per check (PASS, FAIL, NEED) and the summary, the JSON report,
 * the exit codes (0 passed, 1 failed, 2 usage), and each option it refuses before sending
 * anything. The battery's checks: e2e/check-webhooks.
 */
import { describe, expect, it } from 'vitest';
import { ORDERS_USED, WEBHOOK_CHECK_IDS } from '../../../src/features/check-webhooks/index.js';
import { runMain } from '../../support/in-process-cli.js';
import { perTest } from '../../support/servers.js';
import { badHandler, goodHandler, shopHandler, type SampleHandler } from '../../support/webhook-handlers.js';

const per = perTest();
const track = async <T extends SampleHandler>(handler: Promise<T>): Promise<T> => {
  const h = await handler;
  per.defer(() => h.close());
  return h;
};

describe('check-webhooks in process', () => {
  it('a good handler: one PASS line per check and "all passed", exit 0', async () => {
    const good = await track(goodHandler({ secret: 'whsec_in_process' }));
    const r = await runMain(['check-webhooks', good.url, '--webhook-signing', 'hmac', '--timeout', '5000'], {
      PAYMENT_SANDBOX_WEBHOOK_SECRET: 'whsec_in_process',
    });
    expect(r.code, r.out).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toBe(`check-webhooks ${good.url} (signing hmac, timezone UTC)`);
    expect(lines.slice(1, -1)).toHaveLength(WEBHOOK_CHECK_IDS.length);
    expect(lines.slice(1, -1).every((l) => l.startsWith('PASS  '))).toBe(true);
    expect(lines.at(-1)).toBe(`all ${WEBHOOK_CHECK_IDS.length} checks passed`);
  });

  it('a bad handler: FAIL lines and how many failed, exit 1; --json prints the report', async () => {
    const bad = await track(badHandler());
    const r = await runMain(['check-webhooks', bad.url]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL {2}tampered_body {10}.+: .+$/m);
    expect(r.out).toMatch(new RegExp(`^\\d+ of ${WEBHOOK_CHECK_IDS.length} checks failed\\n$`, 'm'));
    const json = await runMain(['check-webhooks', bad.url, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ url: bad.url, passed: false, signing: 'rsa' });
  });

  it('with --state-url a shop that keeps only its own orders: NEED lines for the cases that need --orders', async () => {
    const shop = await track(shopHandler());
    const stateUrl = shop.url.replace(/\/webhooks$/, '/orders');
    const r = await runMain(['check-webhooks', shop.url, '--state-url', stateUrl, '--webhook-timezone', 'Europe/Berlin']);
    expect(r.out.split('\n')[0]).toBe(`check-webhooks ${shop.url} (signing rsa, timezone Europe/Berlin, state ${stateUrl})`);
    expect(r.out).toMatch(/^NEED {2}\S+/m);
    expect(r.out).toMatch(new RegExp(`; \\d+ of ${WEBHOOK_CHECK_IDS.length} need --orders \\(not failures\\)\\n$`));
    const orders = Array.from({ length: ORDERS_USED }, (_, i) => `order-${i + 1}`);
    for (const id of orders) shop.createOrder(id);
    const withOrders = await runMain(['check-webhooks', shop.url, '--state-url', stateUrl, '--orders', orders.join(',')]);
    expect(withOrders.out.split('\n')[0]).toContain(`, orders ${orders.join(',')})`);
    expect(withOrders.code).toBe(0);
    expect(withOrders.out).not.toMatch(/^NEED/m);
  });

  it.each([
    [['--timeout', '0'], 'invalid --timeout "0": must be a whole number of milliseconds, 1 to 600000'],
    [['--state-url', 'ftp://x/orders'], 'invalid --state-url "ftp://x/orders": must be an http(s) URL'],
    [['--orders', 'o-1'], '--orders needs --state-url: the orders are read back through it'],
    [['--state-url', 'http://127.0.0.1:9/orders', '--orders', 'o-1,o-1'], 'invalid --orders "o-1,o-1": '],
    [['--webhook-signing', 'hmac'], 'invalid --webhook-secret: is required with --webhook-signing hmac'],
  ])('refuses %j with exit 2 before sending anything', async (args, message) => {
    const r = await runMain(['check-webhooks', 'http://127.0.0.1:9/webhooks', ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`payment-sandbox check-webhooks: ${message}`);
    expect(r.out).toBe('');
  });

  it('refuses a merchant URL that is not http(s), and a missing one', async () => {
    const r = await runMain(['check-webhooks', 'ftp://x/webhooks']);
    expect(r).toMatchObject({
      code: 2,
      err: 'payment-sandbox check-webhooks: invalid merchant URL "ftp://x/webhooks": must be an http(s) URL\n',
    });
    expect((await runMain(['check-webhooks'])).code).toBe(2);
  });
});
