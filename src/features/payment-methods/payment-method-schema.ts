/**
 * payment_method of a request (spec: Sub-objects): its kinds, the card fields direct mode
 * sends, and the rules on them, shared by transactions and subscriptions:
 * - direct mode: a card needs number, expiration_date and security_code (for subscriptions
 *   all or none: none charges the default test card); any other kind its payment_channel_code;
 * - the security code has as many digits as the card's scheme prints (4 Amex, 3 others);
 * - checkout mode: no card data at all (PCI: the customer types it on the payment page);
 * - the catalogue: a known payment_channel_code, used with a currency it takes, and with
 *   the payment_method.type of its kind (`card` only with `CARD`).
 */
import { z } from '@hono/zod-openapi';
import { cardBrand, isValidExpiry, luhnValid, securityCodeLength } from './card.js';
import { isCurrency } from '../../core/domain/money.js';
import { PAYMENT_METHOD_TYPES } from './entities.js';
import { PAYMENT_CHANNEL_CODES, paymentChannel, requestTypesOf, validateChannel } from './payment-methods.js';
import { httpUrlSchema, text } from '../../core/http/schemas.js';
import { isRecord, missing, type IssueSink } from '../../core/http/wire/issues.js';

const CARD_NUMBER_FORMAT = /^\d{12,19}$/;

/**
 * Payment method kinds (sandbox decision; the spec groups methods without naming them):
 * - `card`: international card schemes; direct mode sends the card fields, checkout mode
 *   collects them on the payment page.
 * - `wallet`: e-wallet apps (Thai e-wallets, Chinese wallet apps), chosen by payment_channel_code.
 * - `qr`: Thai instant bank-transfer QR.
 * - `mobile_banking`: Thai mobile banking apps.
 * The Brazilian instant payment scheme (Pix) is paid by scanning a QR code, so it is `qr`:
 * the spec lists every method as "Instant", so "instant" names no kind. The enum is exactly
 * the types the catalogue's channels take (`PAYMENT_METHOD_TYPES`).
 */
export const paymentMethodTypeSchema = z.enum(PAYMENT_METHOD_TYPES).openapi({
  description:
    'card: card schemes (card fields required in direct mode); qr: Thai instant bank-transfer QR and Pix, ' +
    'the Brazilian instant payment scheme; wallet: e-wallet apps; mobile_banking: Thai mobile banking apps. ' +
    'Each channel takes the type GET /_sandbox/payment-methods lists for it.',
});

/**
 * payment_method of the request, with the card fields of direct mode. Card fields are
 * optional here; `directPaymentMethodRule` requires them for `type: card` in direct mode.
 */
export const paymentMethodRequestSchema = z
  .object({
    type: paymentMethodTypeSchema,
    payment_channel_code: text(64).optional(),
    redirect_url: httpUrlSchema.optional(),
    webhooks_url: httpUrlSchema.optional().openapi({
      description: 'Receives the payment webhook of every charge of this subscription.',
    }),
    number: z
      .string()
      .regex(CARD_NUMBER_FORMAT, 'Must be 12 to 19 digits')
      .refine((v) => !CARD_NUMBER_FORMAT.test(v) || luhnValid(v), 'Card number fails the Luhn check')
      .optional()
      .openapi({ example: '4111111111111111' }),
    expiration_date: z.string().refine(isValidExpiry, 'Must be MM/YY with a month from 01 to 12').optional().openapi({ example: '12/30' }),
    security_code: z
      .string()
      .regex(/^\d{3,4}$/, 'Must be 3 or 4 digits')
      .optional()
      .openapi({ example: '123' }),
    holder_name: text(255).optional(),
  })
  .openapi('SubscriptionPaymentMethodRequest');

/** What direct mode requires of a payment method (in the words of the request). */
export const DIRECT_PAYMENT_METHOD_RULE =
  'Direct mode: type card needs number, expiration_date and security_code; any other type needs payment_channel_code.';

/**
 * The direct-mode rule on the body's `payment_method` (read defensively): a card needs its
 * number, expiration_date and security_code; any other kind its payment_channel_code.
 */
export function directPaymentMethodRule(body: Record<string, unknown>, ctx: IssueSink, cardOptional = false): void {
  const method = body.payment_method;
  if (!isRecord(method) || !paymentMethodTypeSchema.safeParse(method.type).success) return;
  if (method.type === 'card') {
    const fields = ['number', 'expiration_date', 'security_code'] as const;
    // Subscriptions: no card fields at all charges the default test card.
    if (cardOptional && fields.every((field) => method[field] === undefined)) return;
    for (const field of fields) {
      if (method[field] === undefined) {
        missing(
          ctx,
          ['payment_method', field],
          'string',
          cardOptional
            ? `payment_method.${field} is required with the other card fields (send number, expiration_date and security_code, or none for the default test card)`
            : `payment_method.${field} is required for card payments in direct mode`,
        );
      }
    }
  } else if (method.payment_channel_code === undefined) {
    missing(
      ctx,
      ['payment_method', 'payment_channel_code'],
      'string',
      `payment_method.payment_channel_code is required for payment method type ${method.type}`,
    );
  }
}

/** The security code has as many digits as the card's scheme prints: 4 for American Express, 3 for the others. */
export function securityCodeRule(body: Record<string, unknown>, ctx: IssueSink): void {
  const method = body.payment_method;
  if (!isRecord(method) || typeof method.number !== 'string' || typeof method.security_code !== 'string') return;
  if (!luhnValid(method.number) || !/^\d{3,4}$/.test(method.security_code)) return; // reported by the fields' own rules
  const brand = cardBrand(method.number);
  const length = securityCodeLength(brand);
  if (method.security_code.length === length) return;
  ctx.addIssue({
    code: 'custom',
    path: ['payment_method', 'security_code'],
    input: method.security_code,
    message: `Must be ${length} digits for this card (${brand === 'amex' ? 'American Express uses 4' : 'only American Express uses 4; other schemes use 3'})`,
  });
}

/** Why checkout-mode accounts send no card data (the message of the 400). */
export const CHECKOUT_CARD_DATA_RULE =
  'Checkout mode never sends card data: the customer types the card on the sandbox payment page, so card numbers and security codes stay out of merchant systems (PCI DSS). Remove it, or use a direct-mode account.';

/** Checkout mode: `payment_method.number` and `security_code` are refused (PCI). */
export function checkoutCardDataRule(body: Record<string, unknown>, ctx: IssueSink): void {
  const method = body.payment_method;
  if (!isRecord(method)) return;
  for (const field of ['number', 'security_code'] as const) {
    if (method[field] === undefined) continue;
    ctx.addIssue({
      code: 'custom',
      path: ['payment_method', field],
      input: method[field],
      message: `payment_method.${field}: ${CHECKOUT_CARD_DATA_RULE}`,
    });
  }
}

/**
 * The catalogue on `payment_method.payment_channel_code` (with the body's `currency`): an
 * unknown code is an enum error listing every valid code; a code with a currency its
 * channel does not take is a value error on `/currency`. `alsoValid` (the restricted
 * channel of `--restricted-channel-code`) is accepted in any currency.
 */
export function channelRule(body: Record<string, unknown>, ctx: IssueSink, alsoValid?: string): void {
  const method = body.payment_method;
  if (!isRecord(method) || typeof method.payment_channel_code !== 'string' || method.payment_channel_code === alsoValid) return;
  const currency = typeof body.currency === 'string' && isCurrency(body.currency) ? body.currency : null;
  for (const detail of validateChannel(method.payment_channel_code, currency ?? 'USD')) {
    if (detail.type === 'value_error' && currency === null) continue; // the currency's own rule reports it
    const path = detail.pointer.split('/').slice(1);
    if (detail.type === 'enum_error') {
      const values = alsoValid === undefined ? [...PAYMENT_CHANNEL_CODES] : [...PAYMENT_CHANNEL_CODES, alsoValid];
      const message = alsoValid === undefined ? detail.message : `${detail.message} (and the restricted channel ${alsoValid})`;
      ctx.addIssue({ code: 'invalid_value', values, path, input: method.payment_channel_code, message });
    } else {
      ctx.addIssue({ code: 'custom', path, input: body.currency, message: detail.message });
    }
  }
}

/**
 * `payment_method.type` agrees with the catalogue's kind of `payment_channel_code`: `card` only with `CARD`, a QR, wallet or banking-app channel only with
 * its own type (see `requestTypesOf`). A mismatch is a value error at `/payment_method/type`
 * naming the expected type. Unknown codes (and `alsoValid`, the restricted channel) are left
 * to `channelRule`.
 */
export function channelTypeRule(body: Record<string, unknown>, ctx: IssueSink, alsoValid?: string): void {
  const method = body.payment_method;
  if (!isRecord(method) || typeof method.payment_channel_code !== 'string' || typeof method.type !== 'string') return;
  if (method.payment_channel_code === alsoValid) return;
  const found = paymentChannel(method.payment_channel_code);
  if (!found || !paymentMethodTypeSchema.safeParse(method.type).success) return;
  const types = requestTypesOf(found);
  if (types.some((t) => t === method.type)) return;
  const expected = types.map((t) => `"${t}"`).join(' or ');
  ctx.addIssue({
    code: 'custom',
    path: ['payment_method', 'type'],
    input: method.type,
    message: `payment_channel_code ${found.code} (${found.name}) is a ${found.type.replace('_', ' ')} channel: payment_method.type must be ${expected}, not "${method.type}"`,
  });
}
