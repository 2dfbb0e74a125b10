/**
 * Why did a merchant's signature check fail? The sandbox keeps the exact bytes of every
 * delivery, so it can compare what the handler verified (the body it hashed, the signature
 * header it read, the key it used) with what was sent, and name one cause:
 * `valid`, `body_reserialized`, `body_changed`, `signature_encoding`, `wrong_key`,
 * `hmac_vs_rsa` or `not_from_sandbox`, with the first differing byte and the fix.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Delivery } from '../../core/domain/entities.js';
import { badRequest, notFound } from '../../core/domain/errors.js';
import { createSigner, type WebhookSigning } from '../../core/webhooks/signing.js';
import { MAX_JSON_DEPTH, tooDeep } from '../../core/http/body.js';

export const EXPLAIN_CAUSES = [
  'valid',
  'body_reserialized',
  'body_changed',
  'signature_encoding',
  'wrong_key',
  'hmac_vs_rsa',
  'not_from_sandbox',
] as const;
export type ExplainCause = (typeof EXPLAIN_CAUSES)[number];

/** What the handler verified. */
export interface ExplainRequest {
  /** The body text the handler verified (or `bodyBase64`: its bytes). */
  body?: string | undefined;
  bodyBase64?: string | undefined;
  /** The signature header value the handler verified (or the signature it computed and compared). */
  signature: string;
  /** The delivery it was; without it the sandbox finds it by its signature or its body. */
  deliveryId?: string | undefined;
  /** The public key (PEM) the handler verified with. */
  publicKey?: string | undefined;
}

/** The first byte where what the handler verified leaves what the sandbox sent. */
export interface FirstDifference {
  offset: number;
  /** The sent bytes from `offset` (a few, as text). */
  sent: string;
  /** The verified bytes from `offset` (a few, as text). */
  received: string;
}

export interface Explanation {
  valid: boolean;
  cause: ExplainCause;
  detail: string;
  fix: string;
  delivery_id?: string;
  first_difference?: FirstDifference;
}

/** What the explainer reads. */
export interface ExplainDeps {
  /** How the sandbox signs (`--webhook-signing`, its key or secret). */
  signing: WebhookSigning;
  /** The published webhook public key (PEM). */
  publicKeyPem: string;
  deliveries: {
    byId(id: string): Delivery | undefined;
    /** The newest delivery signed with one of `signatures` (preferred) or whose body is `body`. */
    matching(signatures: string[], body: string): Delivery | undefined;
  };
}

const EXCERPT = 24;
/** Where the docs explain each cause. */
const DOCS = '/docs/webhooks#why-a-signature-check-fails';

/** A signature header value read in each way a handler might have written it. */
interface Reading {
  how: string;
  bytes: Buffer;
}

function readings(text: string): Reading[] {
  const out: Reading[] = [];
  const unwrapped = text.trim().replace(/^(["'])([\s\S]*)\1$/, '$2');
  const bare = unwrapped.replace(/\s+/g, '');
  const wrapped = bare !== text;
  const note = (how: string) => (wrapped ? `${how}, wrapped in whitespace or quotes` : how);
  if (/^(?:[0-9a-fA-F]{2})+$/.test(bare))
    out.push({ how: note(/[A-F]/.test(bare) ? 'upper-case hex' : 'hex'), bytes: Buffer.from(bare, 'hex') });
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(bare))
    out.push({ how: note(bare.includes('=') ? 'base64' : 'base64 without padding'), bytes: Buffer.from(bare, 'base64') });
  if (/^[A-Za-z0-9_-]+={0,2}$/.test(bare) && /[_-]/.test(bare)) out.push({ how: note('base64url'), bytes: Buffer.from(bare, 'base64url') });
  return out;
}

function firstDifference(sent: Buffer, received: Buffer): FirstDifference {
  let offset = 0;
  const n = Math.min(sent.length, received.length);
  while (offset < n && sent[offset] === received[offset]) offset++;
  const excerpt = (b: Buffer) => b.subarray(offset, offset + EXCERPT).toString('utf8');
  return { offset, sent: excerpt(sent), received: excerpt(received) };
}

/**
 * Parses JSON, or undefined: for text that is not JSON, and for JSON nested deeper than
 * `MAX_JSON_DEPTH` levels, which is compared as text only (so no depth of input reaches the
 * recursive comparison below).
 */
function parsed(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  return tooDeep(value, MAX_JSON_DEPTH) === undefined ? value : undefined;
}

/** The same JSON value (object keys in any order); both at most `MAX_JSON_DEPTH` deep. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function publicKeyOf(pem: string): KeyObject {
  try {
    return createPublicKey(pem);
  } catch {
    throw badRequest('Request failed validation', [
      { type: 'value_error', pointer: '/public_key', message: 'Not a PEM public key', location: 'body' },
    ]);
  }
}

const sameKey = (a: KeyObject, b: KeyObject): boolean =>
  a.export({ type: 'spki', format: 'der' }).equals(b.export({ type: 'spki', format: 'der' }));

/** The explainer over `deps`. */
export function createSignatureExplainer(deps: ExplainDeps) {
  const sign = createSigner(deps.signing);
  const rsa = deps.signing.mode === 'rsa';
  const sandboxKey = createPublicKey(deps.publicKeyPem);
  const canonical = (bytes: Buffer) => (rsa ? bytes.toString('base64') : bytes.toString('hex'));
  const decode = (signature: string) => Buffer.from(signature, rsa ? 'base64' : 'hex');

  return {
    /**
     * Names why a check of `request` against the sandbox's delivery fails (or that it passes).
     * @throws 404 for an unknown `deliveryId`; 400 for a `publicKey` that is not a PEM key.
     */
    explain(request: ExplainRequest): Explanation {
      const received =
        request.bodyBase64 !== undefined ? Buffer.from(request.bodyBase64, 'base64') : Buffer.from(request.body ?? '', 'utf8');
      const receivedText = received.toString('utf8');
      const ways = readings(request.signature);
      const key = request.publicKey === undefined ? undefined : publicKeyOf(request.publicKey);

      let delivery: Delivery | undefined;
      if (request.deliveryId !== undefined) {
        delivery = deps.deliveries.byId(request.deliveryId);
        if (!delivery) throw notFound(`Delivery ${request.deliveryId} not found`);
      } else {
        const forms = [request.signature, ...ways.map((w) => canonical(w.bytes))];
        delivery = deps.deliveries.matching([...new Set(forms)], receivedText);
      }
      if (!delivery)
        return {
          valid: false,
          cause: 'not_from_sandbox',
          detail:
            'No delivery of this sandbox was signed with this signature or sent this body: it was not sent by this sandbox (another sandbox, a forged request, or a delivery the log no longer keeps).',
          fix: `Paste the exact body and signature header of a delivery from GET /_sandbox/deliveries, or give its delivery_id. See ${DOCS}.`,
        };

      const id = delivery.id;
      const sent = Buffer.from(delivery.body, 'utf8');
      const expected = sign(delivery.body);
      const expectedBytes = decode(expected);
      const answer = (cause: ExplainCause, detail: string, fix: string, difference?: FirstDifference): Explanation => ({
        valid: cause === 'valid',
        cause,
        detail,
        fix: `${fix} See ${DOCS}-${cause.replaceAll('_', '-')}.`,
        delivery_id: id,
        ...(difference ? { first_difference: difference } : {}),
      });

      // The method and the key first: no body or encoding can make the wrong check pass.
      if (!rsa && key !== undefined)
        return answer(
          'hmac_vs_rsa',
          `The sandbox signs this delivery with HMAC-SHA256 (--webhook-signing hmac), but the handler verified an RSA signature with a public key.`,
          'Compute the hex HMAC-SHA256 of the raw body with the shared secret and compare it in constant time with the signature header, or start the sandbox with --webhook-signing rsa.',
        );
      if (request.signature.trim() !== expected) {
        // An HMAC-SHA256 is 32 bytes; an RSA signature at least 128.
        const size = rsa ? 32 : 128;
        const other = ways.find((w) => (rsa ? w.bytes.length === size : w.bytes.length >= size));
        if (other)
          return answer(
            'hmac_vs_rsa',
            rsa
              ? `The sandbox signs with RSA (RSASSA-PKCS1-v1_5 with SHA-256, base64), but the signature checked is ${other.bytes.length} bytes, an HMAC-SHA256.`
              : `The sandbox signs with HMAC-SHA256 (hex), but the signature checked is ${other.bytes.length} bytes, an RSA signature.`,
            rsa
              ? 'Verify the base64 signature header with the published public key (GET /_sandbox/webhook-public-key) and RSA-SHA256, or start the sandbox with --webhook-signing hmac.'
              : 'Compare the hex HMAC-SHA256 of the raw body with the signature header, or start the sandbox with --webhook-signing rsa.',
          );
      }
      if (rsa && key !== undefined && !sameKey(key, sandboxKey))
        return answer(
          'wrong_key',
          "The public key the handler verified with is not the sandbox's webhook key: no signature of the sandbox verifies with it.",
          'Load the PEM of GET /_sandbox/webhook-public-key (also in GET /_sandbox/credentials), into the file $PAYMENT_SANDBOX_PUBLIC_KEY names.',
        );

      if (!received.equals(sent)) {
        const difference = firstDifference(sent, received);
        const receivedValue = parsed(receivedText);
        if (receivedValue !== undefined && sameValue(receivedValue, parsed(delivery.body)))
          return answer(
            'body_reserialized',
            `The body checked is the same JSON value as delivery ${id} but other bytes, from byte ${difference.offset}: the handler verified JSON it had parsed and written again, not the bytes it received.`,
            'Verify the raw request body exactly as received, before any JSON parsing (Node: express.raw / the request stream; Python: request.get_data(); PHP: file_get_contents("php://input"); Ruby: request.raw_post; Go: io.ReadAll(r.Body); Java: the request body bytes), then parse it.',
            difference,
          );
        return answer(
          'body_changed',
          received.length < sent.length && sent.subarray(0, received.length).equals(received)
            ? `The body checked is delivery ${id} cut short at byte ${received.length} of ${sent.length}.`
            : `The body checked is not what the sandbox sent in delivery ${id}: it differs from byte ${difference.offset}.`,
          'Read the whole raw body before anything rewrites it: a proxy, a middleware that trims or re-encodes, a body size limit or a character-set conversion changed it.',
          difference,
        );
      }

      if (request.signature === expected)
        return answer(
          'valid',
          `The body is byte for byte what delivery ${id} sent and the signature is its signature: a check of these bytes with the sandbox's key passes.`,
          'Nothing is wrong with these inputs. If the handler still refuses them, it does not check these bytes and this header: log what it passes to the verification.',
        );
      const same = ways.find((w) => w.bytes.equals(expectedBytes));
      if (same)
        return answer(
          'signature_encoding',
          `The signature is the right one, written as ${same.how}; the sandbox sends it as ${rsa ? 'base64' : 'lower-case hex'}, with nothing around it.`,
          rsa
            ? 'Take the signature header value as it is and decode it from base64 (not hex, not base64url), without quotes or whitespace.'
            : 'Compare the lower-case hex digest with the signature header value as it is, without quotes or whitespace.',
        );
      return {
        ...answer(
          'not_from_sandbox',
          delivery.fault === 'bad_signature'
            ? `Delivery ${id} played the bad_signature fault: the sandbox sent it with a signature that does not match its body on purpose. Refusing it is right.`
            : `The sandbox did not make this signature for delivery ${id}'s body: the signature was made over other bytes or with another key.`,
          'Verify with the signature header of the delivery as received; refuse deliveries whose signature does not verify.',
        ),
      };
    },
  };
}

export type SignatureExplainer = ReturnType<typeof createSignatureExplainer>;
