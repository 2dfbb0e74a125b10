/**
 * `GET /_sandbox/webhook-public-key?format=pem|der|jwk|x509`: each form, imported
 * with node's own crypto as a merchant's verifier would, verifies a signature made with the
 * published demo private key; the certificate is self-signed and its key is the published
 * key. Served over a real socket; a bad format gets the error envelope.
 */
import { X509Certificate, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../../src/core/credentials/demo-credentials.js';
import { startServer, type RunningServer } from '../../../src/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.stop();
});

const keyAt = (query: string) => fetch(`${server.url}/_sandbox/webhook-public-key${query}`);

/** A webhook-like body signed as the sandbox signs (RSA-SHA256, PKCS#1 v1.5) with the demo private key. */
const message = Buffer.from(JSON.stringify({ ll_transaction_id: 'tx-1', payment_data: { payment_status: 'SUCCEEDED' } }));
const signature = sign('sha256', message, DEMO_WEBHOOK_PRIVATE_KEY_PEM);
const verifies = (key: KeyObject) => verify('sha256', message, key, signature);
const published = createPublicKey(DEMO_WEBHOOK_PUBLIC_KEY_PEM).export({ format: 'der', type: 'spki' });

describe('GET /_sandbox/webhook-public-key in each form', () => {
  it('pem (default and ?format=pem): the SPKI PEM', async () => {
    for (const query of ['', '?format=pem']) {
      const res = await keyAt(query);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-pem-file');
      const pem = await res.text();
      expect(pem).toBe(DEMO_WEBHOOK_PUBLIC_KEY_PEM);
      expect(verifies(createPublicKey(pem))).toBe(true);
    }
  });

  it('der: one line of base64 that imports as DER SPKI', async () => {
    const res = await keyAt('?format=der');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const key = createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
    expect(verifies(key)).toBe(true);
    expect(key.export({ format: 'der', type: 'spki' }).equals(published)).toBe(true);
  });

  it('jwk: an RSA JWK with kid (RFC 7638 thumbprint), alg RS256 and use sig', async () => {
    const res = await keyAt('?format=jwk');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/jwk+json');
    const jwk = (await res.json()) as { kty: string; n: string; e: string; kid: string; alg: string; use: string };
    expect(jwk).toMatchObject({ kty: 'RSA', e: 'AQAB', alg: 'RS256', use: 'sig' });
    expect(jwk.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    expect(verifies(key)).toBe(true);
    expect(key.export({ format: 'der', type: 'spki' }).equals(published)).toBe(true);
    // Same key, same kid on every start.
    expect(((await (await keyAt('?format=jwk')).json()) as { kid: string }).kid).toBe(jwk.kid);
  });

  it('x509: a self-signed certificate whose public key is the published key', async () => {
    const res = await keyAt('?format=x509');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-pem-file');
    const pem = await res.text();
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n?$/);
    const cert = new X509Certificate(pem);
    expect(verifies(cert.publicKey)).toBe(true);
    expect(cert.publicKey.export({ format: 'der', type: 'spki' }).equals(published)).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    // Self-signed: issuer is subject and its signature verifies with its own key. (Its key
    // usage is digitalSignature only, so OpenSSL's checkIssued, which wants keyCertSign, says no.)
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.subject).toContain('payment-sandbox');
    expect(new Date(cert.validFrom).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 10 * 365 * 86_400_000);
    // Deterministic: the same bytes on every request (and start).
    expect(await (await keyAt('?format=x509')).text()).toBe(pem);
  });

  it('an unknown format gets the error envelope at /format', async () => {
    const res = await keyAt('?format=p12');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', code: 'bad_request', details: [{ pointer: '/format', location: 'query' }] });
  });

  it('GET /_sandbox/credentials carries every form, and the OpenAPI document names the formats', async () => {
    const creds = (await (await fetch(`${server.url}/_sandbox/credentials`)).json()) as {
      webhook_public_key: { pem: string; der_base64: string; jwk: { kid: string }; x509_pem: string };
    };
    expect(creds.webhook_public_key.pem).toBe(DEMO_WEBHOOK_PUBLIC_KEY_PEM);
    expect(creds.webhook_public_key.der_base64).toBe(await (await keyAt('?format=der')).text());
    expect(creds.webhook_public_key.x509_pem).toBe(await (await keyAt('?format=x509')).text());
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        {
          get: {
            parameters: Array<{ name: string; schema: { enum: string[] } }>;
            responses: { 200: { content: Record<string, unknown> } };
          };
        }
      >;
    };
    const op = doc.paths['/_sandbox/webhook-public-key']!.get;
    expect(op.parameters.find((p) => p.name === 'format')?.schema.enum).toEqual(['pem', 'der', 'jwk', 'x509']);
    expect(Object.keys(op.responses[200].content)).toEqual(
      expect.arrayContaining(['application/x-pem-file', 'text/plain', 'application/jwk+json']),
    );
  });
});
