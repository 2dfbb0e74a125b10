/**
 * The panel leads to the docs: its side bar links `/docs`, the Go-live view turns a finding's
 * `docs` reference (`docs/<page>.md#<anchor>`) into the served page at that anchor, and the
 * empty states' create commands send an Idempotency-Key.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const panelModule = (path: string): Promise<unknown> => import(new URL(`../../../public/panel/${path}`, import.meta.url).href);

describe('the panel and the docs', () => {
  it('links /docs from the side bar', () => {
    const html = readFileSync(new URL('../../../public/index.html', import.meta.url), 'utf8');
    expect(html).toContain('<a class="side-link" href="/docs"');
  });

  it("opens a go-live finding's docs reference at its anchor on the served page", async () => {
    const { docsHref } = (await panelModule('views/go-live.js')) as { docsHref: (docs: string) => string };
    expect(docsHref('docs/go-live.md#missing_idempotency_key')).toBe('/docs/go-live#missing_idempotency_key');
    expect(docsHref('docs/payment-methods.md#the-payment-page')).toBe('/docs/payment-methods#the-payment-page');
    expect(docsHref('README.md#five-minutes-with-it')).toBe('/docs/readme#five-minutes-with-it');
    expect(docsHref('docs/faults.md')).toBe('/docs/faults');
  });

  it('shows create commands that send an Idempotency-Key', async () => {
    // The unit tier shares one module graph: the page's `window` is gone once this test ends, so
    // no module loaded later (node-forge reads `window.location.href` when it loads) sees it.
    Object.assign(globalThis, { window: { location: { origin: 'http://127.0.0.1:4010', href: 'http://127.0.0.1:4010/' } } });
    try {
      const { examples } = (await panelModule('examples.js')) as {
        examples: Record<'createTransaction' | 'createSubscription', (account: object) => string>;
      };
      for (const mode of ['direct', 'checkout']) {
        const account = { mode, account_id: `acc_demo_${mode}`, api_key: 'sk_test_x' };
        expect(examples.createTransaction(account)).toContain("-H 'Idempotency-Key: order-1001'");
        expect(examples.createSubscription(account)).toContain("-H 'Idempotency-Key: sub-1001'");
      }
    } finally {
      delete (globalThis as { window?: unknown }).window;
    }
  });
});
