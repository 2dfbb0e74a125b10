/**
 * Signatures of deliveries, made once and stored: RSASSA-PKCS1-v1_5 is deterministic and
 * signs the body alone, so one signature serves every attempt and resend of a delivery. An
 * admitted delivery is signed ahead of its slot on its URL (off the main thread when an
 * async signer is given), so a slot is held for the round trip alone.
 */
import type { Delivery } from '../domain/entities.js';
import type { DeliveriesRepo } from '../domain/ports.js';
import { signedBody } from './faults.js';
import { MAX_IN_FLIGHT_PER_URL } from './lanes.js';
import type { AsyncWebhookSigner, WebhookSigner } from './signing.js';
import { Slots } from './slots.js';

/**
 * At most this many admitted deliveries are signed ahead at once (their bodies read and handed
 * to the signer); the rest wait for a place holding only their id, as in a lane.
 */
export const MAX_SIGNING_AHEAD = 2 * MAX_IN_FLIGHT_PER_URL;

export interface SignaturesDeps {
  deliveries: Pick<DeliveriesRepo, 'byId' | 'setSignature'>;
  sign: WebhookSigner;
  /** Signs off the main thread (node:crypto's thread pool); without it `sign` is used. */
  signAsync?: AsyncWebhookSigner;
}

export class Signatures {
  /** Deliveries being signed ahead of their slot, and those waiting for a place to be. */
  private readonly signing: Slots;

  constructor(
    private readonly deps: SignaturesDeps,
    maxAhead = MAX_SIGNING_AHEAD,
  ) {
    this.signing = new Slots(maxAhead);
  }

  /**
   * Signs a pending delivery that has no signature yet, off the main thread, and stores the
   * signature. A failure is left to `of`, which signs again and throws. Without an async
   * signer nothing is signed ahead.
   */
  async ahead(id: string): Promise<void> {
    const { signAsync, deliveries } = this.deps;
    if (!signAsync) return;
    await this.signing.acquire();
    try {
      const row = deliveries.byId(id);
      if (!row || row.status !== 'pending' || row.signature !== null) return;
      deliveries.setSignature(id, await signAsync(signedBody(row)));
    } catch {
      // of() signs again
    } finally {
      this.signing.release();
    }
  }

  /** The delivery's stored signature, or one made now and stored. */
  async of(row: Delivery): Promise<string> {
    if (row.signature !== null) return row.signature;
    const { signAsync, sign, deliveries } = this.deps;
    const signature = signAsync ? await signAsync(signedBody(row)) : sign(signedBody(row));
    deliveries.setSignature(row.id, signature);
    return signature;
  }
}
