import { createHmac, generateKeyPairSync, sign as nodeSign, verify } from 'node:crypto';
import forge from 'node-forge';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../../../src/core/credentials/demo-credentials.js';
import { createAsyncSigner, createSigner, webhookHeaders } from '../../../../src/core/webhooks/signing.js';

const ASCII_BODY = '{"ll_transaction_id":"txn_1","payment_data":{"payment_amount":"10.50"}}';
const UNICODE_BODY = '{"reason":"Café ☕ — 返金 🙂","amount":1050}';

function verifies(raw: string, signature: string, publicKeyPem = DEMO_WEBHOOK_PUBLIC_KEY_PEM): boolean {
  return verify('sha256', Buffer.from(raw), publicKeyPem, Buffer.from(signature, 'base64'));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createSigner, rsa mode', () => {
  const sign = createSigner({ mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM });

  it('signs the body so the published public key verifies it', () => {
    const signature = sign(ASCII_BODY);
    expect(signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(signature, 'base64')).toHaveLength(256);
    expect(verifies(ASCII_BODY, signature)).toBe(true);
  });

  it('signs the UTF-8 bytes of a body with non-ASCII characters', () => {
    const signature = sign(UNICODE_BODY);
    expect(verifies(UNICODE_BODY, signature)).toBe(true);
    expect(signature).toBe(nodeSign('sha256', Buffer.from(UNICODE_BODY, 'utf8'), DEMO_WEBHOOK_PRIVATE_KEY_PEM).toString('base64'));
  });

  it('matches Node crypto PKCS#1 v1.5 signatures byte for byte', () => {
    for (const body of [ASCII_BODY, UNICODE_BODY, '', '{}']) {
      expect(sign(body)).toBe(nodeSign('sha256', Buffer.from(body), DEMO_WEBHOOK_PRIVATE_KEY_PEM).toString('base64'));
    }
  });

  it('fails verification for a tampered body', () => {
    const signature = sign(UNICODE_BODY);
    expect(verifies(UNICODE_BODY.replace('1050', '1051'), signature)).toBe(false);
    expect(verifies(UNICODE_BODY.replace('Café', 'Cafe'), signature)).toBe(false);
    expect(verifies(`${UNICODE_BODY} `, signature)).toBe(false);
  });

  it('fails verification with another public key', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 1024 }); // any other key: a short one is made in milliseconds
    const otherPem = other.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(verifies(ASCII_BODY, sign(ASCII_BODY), otherPem)).toBe(false);
  });

  it('signs with node:crypto, not node-forge (no forge key parsing or hashing per signer or call)', () => {
    const parse = vi.spyOn(forge.pki, 'privateKeyFromPem');
    const hash = vi.spyOn(forge.md.sha256, 'create');
    const signer = createSigner({ mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM });
    signer('a');
    signer('b');
    signer('c');
    expect(parse).not.toHaveBeenCalled();
    expect(hash).not.toHaveBeenCalled();
  });

  it('rejects a PEM that is not a private key', () => {
    expect(() => createSigner({ mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM })).toThrow();
    expect(() => createSigner({ mode: 'rsa', privateKeyPem: 'not a pem' })).toThrow();
  });
});

describe('createAsyncSigner', () => {
  it('gives the same signatures as createSigner, RSA off the main thread, HMAC as is', async () => {
    const rsa = { mode: 'rsa' as const, privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM };
    const signed = await Promise.all([ASCII_BODY, UNICODE_BODY].map(createAsyncSigner(rsa)));
    expect(signed).toEqual([createSigner(rsa)(ASCII_BODY), createSigner(rsa)(UNICODE_BODY)]);
    expect(verifies(UNICODE_BODY, signed[1]!)).toBe(true);
    const hmac = { mode: 'hmac' as const, secret: 's3cret' };
    expect(await createAsyncSigner(hmac)(ASCII_BODY)).toBe(createSigner(hmac)(ASCII_BODY));
  });

  it('rejects what createSigner rejects', () => {
    expect(() => createAsyncSigner({ mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM })).toThrow();
    expect(() => createAsyncSigner({ mode: 'hmac', secret: '' })).toThrow();
  });
});

describe('createSigner, hmac mode', () => {
  const secret = 'whsec_test_secret';
  const sign = createSigner({ mode: 'hmac', secret });

  it('returns the hex HMAC-SHA256 of the raw body', () => {
    for (const body of [ASCII_BODY, UNICODE_BODY, '']) {
      const expected = createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex');
      expect(sign(body)).toBe(expected);
      expect(sign(body)).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('changes with the body and with the secret', () => {
    expect(sign(UNICODE_BODY)).not.toBe(sign(UNICODE_BODY.replace('Café', 'Cafe')));
    expect(createSigner({ mode: 'hmac', secret: 'other' })(ASCII_BODY)).not.toBe(sign(ASCII_BODY));
  });

  it('rejects an empty secret', () => {
    expect(() => createSigner({ mode: 'hmac', secret: '' })).toThrow();
  });
});

describe('webhookHeaders', () => {
  it('carries the content type, the zone-local timestamp, the zone and the signature', () => {
    const sign = createSigner({ mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM });
    const at = new Date('2026-11-21T16:00:00Z');
    const headers = webhookHeaders(UNICODE_BODY, at, 'Asia/Shanghai', sign);
    expect(headers).toEqual({
      'content-type': 'application/json',
      timestamp: '20261122000000',
      timezone: 'Asia/Shanghai',
      signature: sign(UNICODE_BODY),
    });
    expect(verifies(UNICODE_BODY, headers.signature)).toBe(true);
  });

  it('signs exactly the raw body it is given', () => {
    const calls: string[] = [];
    const headers = webhookHeaders('{"a":1}', new Date('2026-01-01T00:00:00Z'), 'UTC', (raw) => {
      calls.push(raw);
      return 'sig';
    });
    expect(calls).toEqual(['{"a":1}']);
    expect(headers.signature).toBe('sig');
    expect(headers.timestamp).toBe('20260101000000');
  });
});
