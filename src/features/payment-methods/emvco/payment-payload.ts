/**
 * The QR payload of a sandbox payment: which EMVCo payload a QR channel gets (PromptPay or
 * Pix) and the sandbox's fictitious receiving merchant identifiers. Deterministic: the same
 * transaction always gives the same payload, so the payment page and the transaction record
 * (`qr_payload`, wired by the creation flow) agree.
 */
import { pixPayload } from './pix.js';
import { emvText } from './tlv.js';
import { promptPayPayload, type PromptPayProxy } from './promptpay.js';

/** Fictitious PromptPay receiver of every sandbox payment (a 13-digit tax id). */
export const SANDBOX_PROMPTPAY_PROXY: PromptPayProxy = { kind: 'tax_id', value: '0123456789012' };
/** Fictitious Pix key of every sandbox payment (an e-mail key on the reserved .test domain). */
export const SANDBOX_PIX_KEY = 'pix@payment-sandbox.test';
/** Merchant city written in Pix payloads. */
export const SANDBOX_PIX_CITY = 'SAO PAULO';

/** What a payload is made from. */
export interface QrPaymentInput {
  id: string;
  amount: number;
  currency: string;
  channelCode: string;
  /** The merchant's display name (Pix field 59; "payment-sandbox" when nothing printable in ASCII is left). */
  merchantName: string;
}

/**
 * The EMVCo payload of a QR payment: PromptPay (THB) or Pix (BRL, txid = the transaction id
 * without dashes, cut to 25 characters); null for any other channel, or a currency the
 * channel does not take.
 */
export function qrPayloadFor(input: QrPaymentInput): string | null {
  if (input.channelCode === 'PROMPTPAY' && input.currency === 'THB') {
    return promptPayPayload({ proxy: SANDBOX_PROMPTPAY_PROXY, amount: input.amount });
  }
  if (input.channelCode === 'PIX' && input.currency === 'BRL') {
    return pixPayload({
      key: SANDBOX_PIX_KEY,
      merchantName: emvText(input.merchantName, 25) || 'payment-sandbox',
      merchantCity: SANDBOX_PIX_CITY,
      amount: input.amount,
      txid: input.id,
    });
  }
  return null;
}
