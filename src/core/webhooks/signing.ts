/**
 * Webhook signatures and headers (spec "Authentication" item 7).
 * `rsa` mode: base64 of RSASSA-PKCS1-v1_5 with SHA-256 over the exact UTF-8 bytes of the
 * raw body, verifiable with the published webhook public key. `hmac` mode: the hex
 * HMAC-SHA256 of the raw body with a shared secret. Both are computed by node:crypto
 * (OpenSSL, well under a millisecond per RSA signature); node-forge is not on this path.
 */

import { createHmac, createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM } from '../credentials/demo-credentials.js';
import { Slots } from './slots.js';
import { compactTimestamp } from './time.js';

/** How webhooks are signed: with an RSA private key (PEM) or with an HMAC secret. */
export type WebhookSigning = { mode: 'rsa'; privateKeyPem: string } | { mode: 'hmac'; secret: string };

/**
 * How the sandbox signs, from its options (`--webhook-signing`, `--webhook-secret`): the one
 * place that reads them, for the deliveries and the check-webhooks battery alike. RSA signs with
 * the published demo key.
 */
export function webhookSigningOf(options: { webhookSigning: 'rsa' | 'hmac'; webhookSecret?: string | undefined }): WebhookSigning {
  return options.webhookSigning === 'hmac'
    ? { mode: 'hmac', secret: options.webhookSecret ?? '' }
    : { mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM };
}

/** Signs a raw webhook body and returns the `signature` header value. */
export type WebhookSigner = (rawBody: string) => string;

/** Signs a raw webhook body off the main thread; resolves with the `signature` header value. */
export type AsyncWebhookSigner = (rawBody: string) => Promise<string>;

/**
 * A signer for `cfg`. The RSA key is parsed once here into a KeyObject, not on every call.
 * RSASSA-PKCS1-v1_5 is deterministic, so the bytes equal what node-forge produced before.
 * @throws Error if the PEM is not an RSA private key, or the HMAC secret is empty.
 */
export function createSigner(cfg: WebhookSigning): WebhookSigner {
  if (cfg.mode === 'hmac') {
    const { secret } = cfg;
    if (secret.length === 0) throw new Error('The webhook HMAC secret must not be empty');
    return (rawBody) => createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
  }
  const key = createPrivateKey({ key: cfg.privateKeyPem, format: 'pem' });
  if (key.asymmetricKeyType !== 'rsa') throw new Error('The webhook signing key must be an RSA private key');
  return (rawBody) => cryptoSign('sha256', Buffer.from(rawBody, 'utf8'), key).toString('base64');
}

/**
 * How many RSA signatures are computed on the thread pool at once: one per core. With more
 * signing threads than cores (node's pool has 4, this machine may have 2), handing each new
 * job to the pool stalled the event loop on the busy cores for about as long as signing on it
 * (`signOneShot` was a quarter of the main thread's time in the webhooks benchmark); with
 * fewer (one on 2 cores), signatures fell behind the deliveries. Jobs past the bound wait
 * here, in order.
 */
export const SIGNING_THREADS = Math.max(1, availableParallelism());

/**
 * The signer for `cfg` that keeps the event loop free: an RSA signature (about a millisecond
 * of CPU) is computed in libuv's thread pool by node:crypto's callback form, at most
 * `threads` at once, so a burst of deliveries never holds other requests; HMAC is cheap and
 * stays on the main thread. The signatures are the same bytes as `createSigner`'s.
 * @throws Error as `createSigner`.
 */
/** Node's callback form of `crypto.sign`, the one call the async signer makes (a seam for its tests). */
export type SignWithCallback = (
  algorithm: string,
  data: Buffer,
  key: KeyObject,
  callback: (err: Error | null, signature: Buffer) => void,
) => void;

export function createAsyncSigner(
  cfg: WebhookSigning,
  threads = SIGNING_THREADS,
  signOnPool: SignWithCallback = cryptoSign,
): AsyncWebhookSigner {
  if (cfg.mode === 'hmac') {
    const sign = createSigner(cfg);
    return (rawBody) => Promise.resolve(sign(rawBody));
  }
  createSigner(cfg); // the same checks
  const key = createPrivateKey({ key: cfg.privateKeyPem, format: 'pem' });
  const slots = new Slots(threads);
  return async (rawBody) => {
    await slots.acquire();
    try {
      return await new Promise<string>((resolve, reject) => {
        signOnPool('sha256', Buffer.from(rawBody, 'utf8'), key, (err, signature) =>
          err ? reject(err) : resolve(signature.toString('base64')),
        );
      });
    } finally {
      slots.release();
    }
  };
}

/**
 * The headers of one webhook delivery: JSON content type, `timestamp` (YYYYMMDDHHMMSS of
 * `at` in `timeZone`), `timezone`, and `signature` of the exact raw body that is sent.
 */
export function webhookHeaders(rawBody: string, at: Date, timeZone: string, sign: WebhookSigner): Record<string, string> {
  return {
    'content-type': 'application/json',
    timestamp: compactTimestamp(at, timeZone),
    timezone: timeZone,
    signature: sign(rawBody),
  };
}
