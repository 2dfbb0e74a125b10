/**
 * The published webhook public key in the forms merchants' verifiers need: PEM
 * (SubjectPublicKeyInfo), the same SPKI as one line of base64 DER (how providers publish it
 * for Java and PHP SDKs), a JWK (RFC 7517, with kid/alg/use) and a self-signed X.509
 * certificate (for platforms that only verify against a certificate), built with node-forge
 * from the published demo key pair. The forms are fixed (the certificate has fixed dates and
 * serial, and RSA PKCS#1 v1.5 signatures are deterministic), so they are built once.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../core/credentials/demo-credentials.js';
import type { WebhookJwk, WebhookKeyForms } from './control.schemas.js';

/** The `format` values of `GET /_sandbox/webhook-public-key`. */
export const WEBHOOK_KEY_FORMATS = ['pem', 'der', 'jwk', 'x509'] as const;
export type WebhookKeyFormat = (typeof WEBHOOK_KEY_FORMATS)[number];

/** Subject and issuer of the self-signed certificate. */
const CERT_NAME = [
  { name: 'commonName', value: 'payment-sandbox webhook signing key (demo, sandbox only)' },
  { name: 'organizationName', value: 'payment-sandbox' },
];
const CERT_NOT_BEFORE = new Date('2026-01-01T00:00:00Z');
const CERT_NOT_AFTER = new Date('2046-01-01T00:00:00Z');

/** The JWK of an RSA public key, its kid the RFC 7638 SHA-256 thumbprint. */
export function publicJwk(publicKeyPem: string): WebhookJwk {
  const exported = createPublicKey(publicKeyPem).export({ format: 'jwk' });
  if (exported.kty !== 'RSA' || typeof exported.n !== 'string' || typeof exported.e !== 'string')
    throw new Error('The webhook key is not an RSA key');
  const { n, e } = exported;
  // RFC 7638: the required members in lexicographic order, no whitespace.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
  return { kty: 'RSA', n, e, kid, alg: 'RS256', use: 'sig' };
}

/** A self-signed X.509 certificate (PEM) of the key pair, valid 2026-2046, for digital signatures only. */
export async function selfSignedCertificate(publicKeyPem: string, privateKeyPem: string): Promise<string> {
  // Loaded on first use: node-forge costs a few hundred ms at start-up for one certificate.
  const { default: forge } = await import('node-forge');
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  cert.serialNumber = '01';
  cert.validity.notBefore = CERT_NOT_BEFORE;
  cert.validity.notAfter = CERT_NOT_AFTER;
  cert.setSubject(CERT_NAME);
  cert.setIssuer(CERT_NAME);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKeyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert).replace(/\r\n/g, '\n');
}

let forms: Promise<WebhookKeyForms> | undefined;

/** The published webhook public key in every form (built on first use). */
export function webhookKeyForms(): Promise<WebhookKeyForms> {
  forms ??= selfSignedCertificate(DEMO_WEBHOOK_PUBLIC_KEY_PEM, DEMO_WEBHOOK_PRIVATE_KEY_PEM).then((x509) => ({
    pem: DEMO_WEBHOOK_PUBLIC_KEY_PEM,
    der_base64: createPublicKey(DEMO_WEBHOOK_PUBLIC_KEY_PEM).export({ format: 'der', type: 'spki' }).toString('base64'),
    jwk: publicJwk(DEMO_WEBHOOK_PUBLIC_KEY_PEM),
    x509_pem: x509,
  }));
  return forms;
}

/** The body and content type of one form. */
export async function webhookKeyAs(format: WebhookKeyFormat): Promise<{ body: string; contentType: string }> {
  const all = await webhookKeyForms();
  switch (format) {
    case 'pem':
      return { body: all.pem, contentType: 'application/x-pem-file' };
    case 'der':
      return { body: all.der_base64, contentType: 'text/plain; charset=utf-8' };
    case 'jwk':
      return { body: JSON.stringify(all.jwk), contentType: 'application/jwk+json' };
    case 'x509':
      return { body: all.x509_pem, contentType: 'application/x-pem-file' };
  }
}
