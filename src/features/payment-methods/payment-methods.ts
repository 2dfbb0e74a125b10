/**
 * The payment-method catalogue: the spec's groups, each with its
 * channel codes, currencies, country and type, and the rules a request's
 * `payment_channel_code` must meet. Pure data and functions: no clock, no database.
 *
 * Which channels need the customer's step: every QR, wallet and banking-app channel (the
 * customer scans or approves in an app); a card needs no step in direct mode (the merchant
 * sends the card), while in checkout mode every payment has one (the card form).
 */
import type { ErrorDetail } from '../../core/domain/errors.js';
import { isCurrency } from '../../core/domain/money.js';
import type { PaymentMethodType } from './entities.js';

/** How the customer pays with a channel, which decides what the payment page acts out; the request's `payment_method.type`. */
export type { PaymentMethodType };

/** One `payment_channel_code` of the catalogue. */
export interface PaymentChannel {
  /** The `payment_channel_code` of requests, e.g. `PROMPTPAY`. */
  code: string;
  /** The name the customer knows, shown on the payment page ("Open TrueMoney"). */
  name: string;
  type: PaymentMethodType;
  /** ISO 4217 codes the channel takes, or `any` (every currency the sandbox accepts). */
  currencies: readonly string[] | 'any';
  /** ISO 3166-1 alpha-2 country, or null for global schemes. */
  country: string | null;
  /** The spec lists every method as "Instant". */
  processing_time: 'Instant';
  /** Whether a payment with this channel waits for the customer even in direct mode. */
  customer_step: boolean;
  /** Card schemes accepted on a card channel (empty for the others). */
  schemes: readonly string[];
}

/** A group of the spec: kind and region. */
export interface PaymentMethodGroup {
  id: string;
  name: string;
  region: string;
  country: string | null;
  type: PaymentMethodType;
  channels: readonly PaymentChannel[];
}

const channel = (
  code: string,
  name: string,
  type: PaymentMethodType,
  currencies: readonly string[] | 'any',
  country: string | null,
  schemes: readonly string[] = [],
): PaymentChannel =>
  Object.freeze({ code, name, type, currencies, country, processing_time: 'Instant' as const, customer_step: type !== 'card', schemes });

/** The catalogue, in the spec's order of groups. */
export const PAYMENT_METHOD_GROUPS: readonly PaymentMethodGroup[] = Object.freeze(
  [
    {
      id: 'international_cards',
      name: 'International card schemes',
      region: 'Global',
      country: null,
      type: 'card',
      channels: [channel('CARD', 'Card', 'card', 'any', null, ['Visa', 'Mastercard', 'American Express', 'JCB', 'UnionPay', 'Discover'])],
    },
    {
      id: 'thai_qr',
      name: 'Thai instant bank-transfer QR',
      region: 'Thailand',
      country: 'TH',
      type: 'qr',
      channels: [channel('PROMPTPAY', 'PromptPay', 'qr', ['THB'], 'TH')],
    },
    {
      id: 'thai_wallets',
      name: 'Thai e-wallets',
      region: 'Thailand',
      country: 'TH',
      type: 'wallet',
      channels: [
        channel('TRUEMONEY', 'TrueMoney Wallet', 'wallet', ['THB'], 'TH'),
        channel('SHOPEEPAY', 'ShopeePay', 'wallet', ['THB'], 'TH'),
        channel('LINEPAY', 'Rabbit LINE Pay', 'wallet', ['THB'], 'TH'),
      ],
    },
    {
      id: 'thai_banking_apps',
      name: 'Thai mobile banking apps',
      region: 'Thailand',
      country: 'TH',
      type: 'mobile_banking',
      channels: [
        channel('KPLUS', 'K PLUS', 'mobile_banking', ['THB'], 'TH'),
        channel('SCB_EASY', 'SCB EASY', 'mobile_banking', ['THB'], 'TH'),
        channel('KRUNGTHAI_NEXT', 'Krungthai NEXT', 'mobile_banking', ['THB'], 'TH'),
        channel('BUALUANG_MBANKING', 'Bualuang mBanking', 'mobile_banking', ['THB'], 'TH'),
        channel('KRUNGSRI_KMA', 'Krungsri KMA', 'mobile_banking', ['THB'], 'TH'),
      ],
    },
    {
      id: 'brazil_instant',
      name: 'Brazilian instant payment scheme',
      region: 'Brazil',
      country: 'BR',
      type: 'qr',
      channels: [channel('PIX', 'Pix', 'qr', ['BRL'], 'BR')],
    },
    {
      id: 'chinese_wallets',
      name: 'Chinese wallet apps',
      region: 'China',
      country: 'CN',
      type: 'wallet',
      channels: [channel('ALIPAY', 'Alipay', 'wallet', ['CNY'], 'CN'), channel('WECHATPAY', 'WeChat Pay', 'wallet', ['CNY'], 'CN')],
    },
  ].map((group) => Object.freeze({ ...group, type: group.type as PaymentMethodType, channels: Object.freeze(group.channels) })),
);

/** Every channel of the catalogue, in catalogue order. */
export const PAYMENT_CHANNELS: readonly PaymentChannel[] = Object.freeze(PAYMENT_METHOD_GROUPS.flatMap((group) => group.channels));

/** Every valid `payment_channel_code`, in catalogue order. */
export const PAYMENT_CHANNEL_CODES: readonly string[] = Object.freeze(PAYMENT_CHANNELS.map((c) => c.code));

const BY_CODE: ReadonlyMap<string, PaymentChannel> = new Map(PAYMENT_CHANNELS.map((c) => [c.code, c]));

/** The channel of an exact code (`PROMPTPAY`), or undefined for an unknown one. */
export function paymentChannel(code: string): PaymentChannel | undefined {
  return BY_CODE.get(code);
}

/** The group a channel belongs to. */
export function groupOf(code: string): PaymentMethodGroup | undefined {
  return PAYMENT_METHOD_GROUPS.find((group) => group.channels.some((c) => c.code === code));
}

/** Whether `channel` takes payments in `currency` (a card: every accepted currency). */
export function acceptsCurrency(channel: PaymentChannel, currency: string): boolean {
  return channel.currencies === 'any' ? isCurrency(currency) : channel.currencies.includes(currency);
}

/**
 * Whether a payment with channel `code` waits for the customer in direct mode: true for
 * QR, wallet and banking-app channels, false for a card or an unknown or absent code.
 * (In checkout mode every payment waits for the customer, whatever its channel.)
 */
export function needsCustomerStep(code: string | null | undefined): boolean {
  return code != null && (paymentChannel(code)?.customer_step ?? false);
}

/**
 * The request's `payment_method.type` values a channel takes: the one type the catalogue
 * lists for it (a card channel `card`, a QR channel `qr`, Pix included, a wallet `wallet`, a
 * banking app `mobile_banking`).
 */
export function requestTypesOf(channel: PaymentChannel): readonly PaymentMethodType[] {
  return [channel.type];
}

/** Where the channel code and the currency sit in a request body (transactions: the defaults). */
export interface ChannelPointers {
  code: string;
  currency: string;
}

const DEFAULT_POINTERS: ChannelPointers = { code: '/payment_method/payment_channel_code', currency: '/currency' };

/**
 * The problems of a `payment_channel_code` used with `currency`, as error details (empty
 * when the pair is valid): an unknown code (`enum_error`, the message lists every valid
 * code) or a currency the channel does not take (`value_error` on the currency, naming the
 * currencies it does). Codes are exact: `promptpay` is unknown.
 */
export function validateChannel(code: string, currency: string, pointers: ChannelPointers = DEFAULT_POINTERS): ErrorDetail[] {
  const found = paymentChannel(code);
  if (!found) {
    return [
      {
        type: 'enum_error',
        pointer: pointers.code,
        message: `Unknown payment channel code ${JSON.stringify(code)}; valid codes: ${PAYMENT_CHANNEL_CODES.join(', ')}`,
        location: 'body',
      },
    ];
  }
  if (acceptsCurrency(found, currency)) return [];
  const takes = found.currencies === 'any' ? 'an ISO 4217 currency' : found.currencies.join(', ');
  return [
    {
      type: 'value_error',
      pointer: pointers.currency,
      message: `Payment channel ${found.code} (${found.name}) takes ${takes}, not ${currency}`,
      location: 'body',
    },
  ];
}

/** How long a payment link stays payable: 24 hours of sandbox clock after the payment's creation. */
export const PAYMENT_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** The sandbox-clock instant (ms) at which the payment link of a payment created at `createdAtMs` expires. */
export function paymentLinkExpiresAt(createdAtMs: number): number {
  return createdAtMs + PAYMENT_LINK_TTL_MS;
}

/** Whether the payment link of a payment created at `createdAtMs` has expired at `nowMs`. */
export function isPaymentLinkExpired(createdAtMs: number, nowMs: number): boolean {
  return nowMs >= paymentLinkExpiresAt(createdAtMs);
}
