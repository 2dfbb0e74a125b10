/**
 * The signature explainer on bodies nested deeper than the JSON limit: compared as text, never
 * as JSON values, so no depth of input overflows the stack (the route would answer 500).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../../src/core/credentials/demo-credentials.js';
import { createSignatureExplainer } from '../../../src/features/webhooks/signature-explain.js';
import { delivery } from '../core/webhooks/fake-deliveries.js';

const explainerOf = (body: string) => {
  const sent = delivery({ id: 'dlv_deep', body });
  return createSignatureExplainer({
    signing: { mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM },
    publicKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM,
    deliveries: { byId: (id) => (id === sent.id ? sent : undefined), matching: () => sent },
  });
};

const nested = (depth: number, open: string, close: string): string => open.repeat(depth) + close.repeat(depth);

describe('explain: bodies nested deeper than 64 levels are compared as text', () => {
  it('a body nested 100,000 levels, re-serialized, is body_changed (no stack overflow)', () => {
    const sent = nested(100_000, '[', ']');
    const explainer = explainerOf(sent);
    const result = explainer.explain({ body: nested(100_000, '[ ', ' ]'), signature: 'c2ln', deliveryId: 'dlv_deep' });
    expect(result.cause).toBe('body_changed');
    expect(result.first_difference?.offset).toBe(1);
  });

  it('at 64 levels the same value in other bytes is still body_reserialized; at 65 it is body_changed', () => {
    for (const [depth, cause] of [
      [64, 'body_reserialized'],
      [65, 'body_changed'],
    ] as const) {
      const explainer = explainerOf(nested(depth, '[', ']'));
      expect(explainer.explain({ body: nested(depth, '[ ', ' ]'), signature: 'c2ln', deliveryId: 'dlv_deep' }).cause, String(depth)).toBe(
        cause,
      );
    }
  });
});

describe('explain: the fix for a re-serialized body', () => {
  it('names the raw-body call the Webhooks guide and the Ruby handler name', () => {
    const explainer = explainerOf('{"a": 1}');
    const { cause, fix } = explainer.explain({ body: '{"a":1}', signature: 'c2ln', deliveryId: 'dlv_deep' });
    expect(cause).toBe('body_reserialized');
    const ruby = /Ruby: ([^;]+);/.exec(fix)?.[1];
    expect(ruby).toBe('request.body.read (Rails: request.raw_post)');
    const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
    expect(read('docs/webhooks.md')).toContain('| `request.body.read` (Rails: `request.raw_post`) |');
    expect(read('examples/webhook-handlers/ruby/handler.rb')).toContain(ruby);
  });
});
