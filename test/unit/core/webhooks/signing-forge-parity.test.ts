/**
 * The node:crypto RSA signer gives the very bytes node-forge gave before (PKCS#1 v1.5 with
 * SHA-256 is deterministic), so merchants who verified yesterday's signatures see no change.
 */
import { verify } from 'node:crypto';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../../../src/core/credentials/demo-credentials.js';
import { createSigner } from '../../../../src/core/webhooks/signing.js';

const forgeKey = forge.pki.privateKeyFromPem(DEMO_WEBHOOK_PRIVATE_KEY_PEM);

function forgeSignature(rawBody: string): string {
  const key = forgeKey;
  const md = forge.md.sha256.create();
  md.update(rawBody, 'utf8');
  return forge.util.encode64(key.sign(md));
}

describe('RSA webhook signatures: node:crypto against node-forge', () => {
  const sign = createSigner({ mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM });
  const bodies = [
    '{"ll_transaction_id":"txn_1","merchant_transaction_id":"order-42","payment_data":{"payment_amount":"10.50"}}',
    '{"reason":"Café ☕ — 返金 🙂","amount":1050}',
    '',
    'x'.repeat(10_000),
  ];

  it('equals the node-forge signature of the same body, byte for byte', () => {
    for (const body of bodies) expect(sign(body)).toBe(forgeSignature(body));
  });

  it('verifies with the published webhook public key (node:crypto and node-forge)', () => {
    const publicKey = forge.pki.publicKeyFromPem(DEMO_WEBHOOK_PUBLIC_KEY_PEM) as forge.pki.rsa.PublicKey;
    for (const body of bodies) {
      const signature = sign(body);
      expect(verify('sha256', Buffer.from(body, 'utf8'), DEMO_WEBHOOK_PUBLIC_KEY_PEM, Buffer.from(signature, 'base64'))).toBe(true);
      const md = forge.md.sha256.create();
      md.update(body, 'utf8');
      expect(publicKey.verify(md.digest().bytes(), forge.util.decode64(signature))).toBe(true);
    }
  });
});
