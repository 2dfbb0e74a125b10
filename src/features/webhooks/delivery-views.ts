/**
 * A delivery as the control API shows it: the wire format with its attempts, extended with its
 * shown state and the merchant's reference its body carries. Built over a read-only query port
 * (`deliveryViews(ports)`), so a router given it cannot write.
 */
import type { Delivery as DeliveryRow } from '../../core/domain/entities.js';
import type { DeliveryQueries } from '../../core/domain/queries.js';
import type { Delivery, DeliveryState } from './control.schemas.js';
import { deliveryView } from './delivery-format.js';

/** A delivery's state as shown: a pending one is queued until its first attempt, then retrying. */
export function deliveryState(row: Pick<DeliveryRow, 'status' | 'attempts'>): DeliveryState {
  if (row.status === 'pending') return row.attempts > 0 ? 'retrying' : 'queued';
  return row.status;
}

/** The merchant's reference a webhook body carries, or null. */
function webhookReference(row: DeliveryRow): string | null {
  let body: unknown;
  try {
    body = JSON.parse(row.body);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[row.kind === 'refund' ? 'original_transaction_id' : 'merchant_transaction_id'];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** What the delivery view reads. */
export interface DeliveryViewPorts {
  deliveries: Pick<DeliveryQueries, 'attemptsOf'>;
}

/** The control record of a delivery row. */
export interface DeliveryViews {
  /** A delivery with its attempts, its shown state and its merchant reference. */
  delivery(row: DeliveryRow): Delivery;
}

/** The delivery view over `ports`. */
export function deliveryViews(ports: DeliveryViewPorts): DeliveryViews {
  return {
    delivery: (row) => ({
      ...deliveryView(row, ports.deliveries.attemptsOf(row.id)),
      state: deliveryState(row),
      reference: webhookReference(row),
    }),
  };
}
