/** What the sandbox keeps of a payment method, and the kinds a request names. */

/** What is stored and echoed of a payment method: never the full number or the security code. */
export interface StoredPaymentMethod {
  type: string;
  payment_channel_code?: string;
  card?: { last4: string; expiration_date: string; brand: string; holder_name?: string };
  /** PromptPay and Pix: the EMVCo merchant-presented QR payload the customer scans. */
  qr_payload?: string;
}

/**
 * The kinds of payment method a request names (`payment_method.type`): exactly the types the
 * channels of the catalogue take, one per channel (`GET /_sandbox/payment-methods`).
 */
export const PAYMENT_METHOD_TYPES = ['card', 'wallet', 'qr', 'mobile_banking'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];
