/**
 * `payment-sandbox/testcontainers` before any container runs: the options become the
 * `PAYMENT_SANDBOX_*` variables the image reads, and a bad option (or one the container fixes)
 * rejects `start()` with the CLI's message before any engine is asked.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../../src/core/config.js';
import { PaymentSandboxContainer, sandboxEnvironment, type PaymentSandboxContainerOptions } from '../../../src/testcontainers.js';

describe('payment-sandbox/testcontainers', () => {
  it('passes each option as its PAYMENT_SANDBOX_* variable', () => {
    expect(
      sandboxEnvironment({
        notificationUrl: 'http://app:3000/webhooks',
        fixtures: ['/app/fixtures/shop.json', '/fixtures/more.json'],
        webhookCanary: true,
        rateLimit: 25,
        latency: { p50Ms: 80, p99Ms: 900 },
        allowedHosts: ['payment-sandbox', 'sandbox.test'],
      }),
    ).toEqual({
      PAYMENT_SANDBOX_NOTIFICATION_URL: 'http://app:3000/webhooks',
      PAYMENT_SANDBOX_FIXTURES: '/app/fixtures/shop.json,/fixtures/more.json',
      PAYMENT_SANDBOX_WEBHOOK_CANARY: 'true',
      PAYMENT_SANDBOX_RATE_LIMIT: '25',
      PAYMENT_SANDBOX_LATENCY: 'p50=80,p99=900',
      PAYMENT_SANDBOX_ALLOWED_HOSTS: 'payment-sandbox,sandbox.test',
    });
  });

  it('rejects a bad option with the sandbox message, before asking any engine', async () => {
    const start = new PaymentSandboxContainer('payment-sandbox').withNotificationUrl('not a url').start();
    await expect(start).rejects.toBeInstanceOf(OptionsError);
    await expect(start).rejects.toThrow('invalid --notification-url "not a url": must be an http(s) URL');
    const hmac = new PaymentSandboxContainer().withOptions({ webhookSigning: 'hmac' }).start();
    await expect(hmac).rejects.toThrow('--webhook-secret');
  });

  it('refuses the options the container sets itself', async () => {
    const port = { port: 8080 } as unknown as PaymentSandboxContainerOptions; // not in the type either
    await expect(new PaymentSandboxContainer().withOptions(port).start()).rejects.toThrow('the container sets port itself');
  });

  it('is a package export with its types, and testcontainers an optional peer dependency', () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
      exports: Record<string, { types: string; default: string }>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    expect(pkg.exports['./testcontainers']).toEqual({ types: './dist/testcontainers.d.ts', default: './dist/testcontainers.js' });
    expect(pkg.peerDependencies.testcontainers).toBeDefined();
    expect(pkg.peerDependenciesMeta.testcontainers).toEqual({ optional: true });
  });
});
