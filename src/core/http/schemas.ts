/**
 * Field schemas shared by every request body: amounts, currencies, URLs, texts. One
 * definition each, so a rule (and its message) is the same on every resource.
 */
import { z } from '@hono/zod-openapi';
import { isCurrency } from '../domain/money.js';
import { faultHeaderParameter } from './faults.js';

/**
 * Largest amount in minor units the sandbox accepts, in every currency: high enough for any realistic payment (IDR 100,000,000 is 10,000,000,000 minor
 * units; KRW 50,000,000 is 50,000,000), and far below 2^53, so every amount stays exact.
 */
export const MAX_AMOUNT = 999_999_999_999;
const CURRENCY_FORMAT = /^[A-Z]{3}$/;

/** A string of 1 to `max` characters. */
export const text = (max: number) => z.string().min(1).max(max);

/** A positive amount in minor units (cents). */
export const amountSchema = z
  .number()
  .int({ error: 'Must be an integer amount in minor units (e.g. cents: 10.50 USD is 1050)' })
  .min(1)
  .max(MAX_AMOUNT)
  .openapi({
    example: 1050,
    description: "Amount in minor units (cents; the currency's ISO 4217 exponent), 1 to 999,999,999,999 in every currency",
  });

/** Three uppercase letters that are an active ISO 4217 code (see `domain/money.ts`). */
export const currencySchema = z
  .string()
  .regex(CURRENCY_FORMAT, 'Must be three uppercase letters (ISO 4217)')
  .refine((v) => !CURRENCY_FORMAT.test(v) || isCurrency(v), 'Not an ISO 4217 currency code')
  .openapi({ example: 'USD', description: 'ISO 4217 currency code' });

/** http(s) URL; other schemes (javascript:, ftp:) are refused. */
export const httpUrlSchema = z.url({
  protocol: /^https?$/,
  error: (issue) => (issue.input === undefined ? undefined : 'Must be an http or https URL'),
});

/** A required http(s) URL whose absence is reported with `whenMissing` (what the field is needed for). */
export const requiredHttpUrlSchema = (whenMissing: string) =>
  z.url({ protocol: /^https?$/, error: (issue) => (issue.input === undefined ? whenMissing : 'Must be an http or https URL') });

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in lower case, the case the sandbox's ids are made in (UUIDs are case-insensitive); any other string as it is. */
export function lowerCaseUuid(id: string): string {
  return UUID_SHAPE.test(id) ? id.toLowerCase() : id;
}

/**
 * A path id (`transaction_id`, `subscription_id`): a UUID (8-4-4-4-12 hex digits, any
 * version). Anything else is a 400 with a detail of type `uuid` at location `path` (the
 * spec's error table: "a UUID type error"); a well-formed id that does not exist is a 404.
 * Upper-case hex digits find the same record as lower-case ones.
 */
export function uuidPathParams<N extends string>(name: N, example: string) {
  const id = z
    .guid({ error: 'Must be a UUID (8-4-4-4-12 hexadecimal digits)' })
    .overwrite(lowerCaseUuid)
    .openapi({ param: { name, in: 'path' }, example, description: 'A UUID, in any letter case.' });
  return z.object({ [name]: id } as Record<N, typeof id>);
}

/** The spec's error envelope, for the OpenAPI document. */
export const errorSchema = z
  .object({
    type: z.literal('error'),
    code: z.string().openapi({ example: 'bad_request' }),
    status: z.number().int().openapi({ example: 400 }),
    message: z.string(),
    details: z.array(
      z.object({
        type: z.string().openapi({ example: 'missing' }),
        pointer: z.string().openapi({ example: '/customer/email' }),
        message: z.string(),
        location: z.enum(['body', 'query', 'path', 'header']),
      }),
    ),
  })
  .openapi('Error');

const errorContent = { 'application/json': { schema: errorSchema } };

/** The error responses every authenticated /v4 operation can give. */
export const errorResponses = {
  400: { description: 'Validation failed or data is missing (a path id that is not a UUID too)', content: errorContent },
  401: { description: 'The bearer token is not valid', content: errorContent },
  403: { description: 'No permission: missing scope or another account', content: errorContent },
  404: { description: 'Not found (or belongs to another account)', content: errorContent },
} as const;

/**
 * The `Idempotent-Replayed` response header (spec: Idempotency rules): `true` on a response
 * that replays the stored first answer to the same `Idempotency-Key`.
 */
export const idempotentReplayedHeader = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored first response to the same `Idempotency-Key`, sent again (the success or the stored error alike); absent otherwise.',
    required: false,
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

/** Extra 409 of idempotent creates. */
export const conflictResponse = { 409: { description: 'concurrent_request or duplicate_record', content: errorContent } } as const;

/** The headers of every /v4 call, for the OpenAPI document. */
export const accountHeaderSchema = z.object({
  'x-merchant-account-id': z.string().optional().openapi({ description: 'Required: the merchant account id.', example: 'acc_demo_direct' }),
});

export const idempotencyHeaderSchema = accountHeaderSchema.extend({
  'idempotency-key': z
    .string()
    .optional()
    .openapi({ description: 'Up to 255 characters; same key + same request replays the first response for 24 hours.' }),
});

/**
 * The same headers as OpenAPI parameters, for routes that only document them: requireAuth
 * and `idempotent` check them already, and a header validator per call costs time.
 */
export const accountHeaderParameters = [
  {
    name: 'x-merchant-account-id',
    in: 'header' as const,
    required: true,
    description: 'The merchant account id.',
    schema: { type: 'string' as const },
    example: 'acc_demo_direct',
  },
  faultHeaderParameter,
];

export const idempotencyHeaderParameters = [
  ...accountHeaderParameters,
  {
    name: 'idempotency-key',
    in: 'header' as const,
    required: false,
    description: 'Up to 255 characters; same key + same request replays the first response for 24 hours.',
    schema: { type: 'string' as const, maxLength: 255 },
  },
];
