/**
 * Webhook verification for merchants' handlers and tests (`payment-sandbox/webhooks`):
 * checks a delivery's `signature` header over the exact raw body with node's crypto, as a
 * merchant's own handler would (RSA SHA-256 with the published public key, or the hex
 * HMAC-SHA256 with `--webhook-secret`). It shares no code with the sandbox's signer.
 */
import { createHmac, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

/** Request headers as node's `IncomingMessage`, fetch's `Headers`, or a plain object give them. */
export type WebhookRequestHeaders = Headers | Record<string, string | string[] | undefined>;

/** What `verifyWebhook` needs: the raw body, the signature (or the headers holding it), and a key. */
export interface VerifyWebhookInput {
  /** The exact bytes received (not re-serialized JSON). */
  body: string | Uint8Array;
  /** The request headers; the `signature` header is read from them. */
  headers?: WebhookRequestHeaders;
  /** The `signature` header value, when `headers` is not given. */
  signature?: string;
  /** The webhook public key (PEM or KeyObject), for the default `rsa` signing. */
  publicKey?: string | KeyObject;
  /** The shared secret, for `--webhook-signing hmac`. */
  secret?: string;
}

function headerValue(headers: WebhookRequestHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * True when the delivery's signature matches its raw body. A missing or malformed signature
 * is false, never an exception.
 * @throws TypeError when neither `publicKey` nor `secret` is given.
 */
export function verifyWebhook(input: VerifyWebhookInput): boolean {
  const signature = input.signature ?? (input.headers ? headerValue(input.headers, 'signature') : undefined);
  if (!signature) return false;
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : Buffer.from(input.body);
  if (input.secret !== undefined) {
    const expected = createHmac('sha256', input.secret).update(body).digest();
    if (!/^[0-9a-f]+$/i.test(signature)) return false;
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  if (input.publicKey === undefined) throw new TypeError('verifyWebhook needs publicKey (rsa signing) or secret (hmac signing)');
  const key = typeof input.publicKey === 'string' ? createPublicKey(input.publicKey) : input.publicKey;
  try {
    return verify('sha256', body, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
