/** Signing ahead and the stored signature (signing-ahead.ts), with a fake signer. */
import { describe, expect, it } from 'vitest';
import { Signatures } from '../../../../src/core/webhooks/signing-ahead.js';
import { delivery, fakeDeliveries, flush } from './fake-deliveries.js';

describe('Signatures', () => {
  it('signs a pending delivery ahead with the async signer and stores it; the attempt reuses it without signing again', async () => {
    const row = delivery({ body: '{"a":1}' });
    const deliveries = fakeDeliveries(row);
    const signed: string[] = [];
    const signatures = new Signatures({
      deliveries,
      sign: () => 'sync',
      signAsync: (body) => (signed.push(body), Promise.resolve(`sig(${body})`)),
    });
    await signatures.ahead(row.id);
    expect(row.signature).toBe('sig({"a":1})');
    expect(await signatures.of(row)).toBe('sig({"a":1})');
    expect(signed).toEqual(['{"a":1}']);
  });

  it('a bad-signature copy is signed over another body', async () => {
    const row = delivery({ body: '{"a":1}', fault: 'bad_signature' });
    const signatures = new Signatures({ deliveries: fakeDeliveries(row), sign: (body) => `sig(${body})` });
    expect(await signatures.of(row)).toBe('sig({"a":1}\n)');
  });

  it('without an async signer nothing is signed ahead; a failure ahead is left to the attempt', async () => {
    const row = delivery();
    const deliveries = fakeDeliveries(row);
    await new Signatures({ deliveries, sign: () => 'sync' }).ahead(row.id);
    expect(row.signature).toBeNull();
    const failing = new Signatures({ deliveries, sign: () => 'sync', signAsync: () => Promise.reject(new Error('pool gone')) });
    await failing.ahead(row.id);
    expect(row.signature).toBeNull();
    await expect(failing.of(row)).rejects.toThrow('pool gone');
  });

  it('signs at most `maxAhead` at once; the rest wait for a place', async () => {
    const rows = [delivery(), delivery(), delivery()];
    const pending: (() => void)[] = [];
    const signatures = new Signatures(
      {
        deliveries: fakeDeliveries(...rows),
        sign: () => 'sync',
        signAsync: () => new Promise((resolve) => pending.push(() => resolve('sig'))),
      },
      2,
    );
    for (const row of rows) void signatures.ahead(row.id);
    await flush();
    expect(pending).toHaveLength(2);
    pending[0]!();
    await flush();
    expect(pending).toHaveLength(3);
  });
});
