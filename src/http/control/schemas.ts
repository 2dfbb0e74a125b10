/**
 * Response schemas of the control API (/_sandbox): the /v4 records extended with what the
 * panel and CI scripts need from the server (which actions are allowed now, the refundable
 * amount, a delivery's state), and the sandbox's own records (accounts, deliveries, the
 * request log, the clock, scenarios, the webhook key). One schema each, so the OpenAPI
 * document shows the real shape and the routes are type-checked against it; the panel's
 * JSDoc types (public/panel/types.js) are these `z.infer` types.
 */
import { z } from '@hono/zod-openapi';
import { DELIVERY_FAULTS } from '../../domain/entities.js';
import { subscriptionResponseSchema } from '../routes/subscriptions.schemas.js';
import { refundSchema, transactionSchema } from '../routes/transactions.schemas.js';
import { scenarioMatchSchema, scenarioStepSchema } from '../../scenarios/schema.js';

const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000+00:00' });

/** What can be done to a transaction now: settle/fail while PENDING, refund while SUCCEEDED with a remainder. */
export const transactionActionSchema = z.enum(['settle', 'fail', 'refund']);

/** A transaction as the control API shows it: the /v4 record, its refunds, and what can be done to it now. */
export const controlTransactionSchema = transactionSchema
  .extend({
    refunds: z.array(refundSchema).openapi({ description: 'Every refund of the transaction, oldest first.' }),
    refundable_amount: z.number().int().min(0).openapi({ description: 'What is left to refund, in minor units: amount - refunded_amount for a SUCCEEDED transaction, else 0.' }),
    allowed_actions: z.array(transactionActionSchema).openapi({ description: 'The control actions legal now: ["settle","fail"] while PENDING, ["refund"] while SUCCEEDED with a remainder, else [].' }),
  })
  .openapi('ControlTransaction');

/** One attempt to deliver a webhook: the exact request and the merchant's answer. */
export const deliveryAttemptSchema = z
  .object({
    number: z.number().int().min(1),
    at: timestamp,
    url: z.string().nullable(),
    request_headers: z.record(z.string(), z.string()),
    request_body: z.string(),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number(),
    ok: z.boolean(),
  })
  .openapi('DeliveryAttempt');

/** How a delivery stands, as shown: waiting for its first attempt, retrying after a failure, delivered, or given up. */
export const deliveryStateSchema = z.enum(['queued', 'retrying', 'delivered', 'failed']);

/** A webhook delivery with every attempt. */
export const deliverySchema = z
  .object({
    id: z.string(),
    merchant_account_id: z.string(),
    kind: z.enum(['payment', 'refund']),
    resource_id: z.string(),
    reference: z.string().nullable().openapi({ description: "The merchant's reference the webhook carries (merchant_transaction_id, or original_transaction_id of a refund), if any." }),
    url: z.string().nullable(),
    status: z.enum(['pending', 'delivered', 'failed']),
    fault: z.enum(DELIVERY_FAULTS).nullable().openapi({ description: 'A scripted webhook fault this delivery plays (scenario webhook_fault step, control API or panel), null for an ordinary one.' }),
    state: deliveryStateSchema.openapi({ description: 'queued (no attempt yet), retrying (an attempt failed, another is scheduled), delivered, failed (gave up).' }),
    attempts_count: z.number().int().min(0),
    next_attempt_at: timestamp.nullable(),
    body: z.string(),
    created_at: timestamp,
    delivered_at: timestamp.nullable(),
    attempts: z.array(deliveryAttemptSchema),
  })
  .openapi('Delivery');

/** An attempt as a list shows it: without the request and response bodies (`GET /_sandbox/deliveries/{id}` has them). */
export const deliveryAttemptSummarySchema = deliveryAttemptSchema.omit({ request_body: true, response_body: true }).openapi('DeliveryAttemptSummary');

/** A delivery as a list shows it: its attempts without their bodies, so a page stays small whatever the merchant answered. */
export const deliverySummarySchema = deliverySchema
  .extend({ attempts: z.array(deliveryAttemptSummarySchema).openapi({ description: 'Every attempt without its bodies; GET /_sandbox/deliveries/{id} gives them.' }) })
  .openapi('DeliverySummary');

/** A transaction with the sandbox's view of it: the matching scenario rule and its webhook deliveries. */
export const transactionDetailSchema = controlTransactionSchema
  .extend({
    scenario_rule: z.string().nullable().openapi({ description: 'The "scenario/rule" that decided its outcome, if any.' }),
    deliveries: z.array(deliverySchema),
  })
  .openapi('ControlTransactionDetail');

export const subscriptionActionSchema = z.enum(['cancel']);

/** A subscription as the control API shows it: the /v4 record, its charges, what can be done to it, and when it is charged next. */
export const controlSubscriptionSchema = subscriptionResponseSchema
  .extend({
    charges: z.array(controlTransactionSchema).openapi({ description: 'The transactions that charged it, oldest first.' }),
    allowed_actions: z.array(subscriptionActionSchema).openapi({ description: '["cancel"] while active or past_due, else [].' }),
    next_charge_at: timestamp.nullable().openapi({ description: 'When the sandbox charges it next on its clock (a renewal or a retry); null when it will not be charged again.' }),
  })
  .openapi('ControlSubscription');

/** An error envelope as logged (the spec's error body). */
const loggedErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ type: z.string().optional(), pointer: z.string(), message: z.string(), location: z.string().optional() })),
});

/** One logged /v4 request. */
export const requestLogEntrySchema = z
  .object({
    id: z.number().int(),
    merchant_account_id: z.string().nullable(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    idempotency_key: z.string().nullable(),
    replayed: z.boolean(),
    duration_ms: z.number(),
    request_body: z.string().nullable(),
    response_body: z.string().nullable(),
    error: loggedErrorSchema.nullable().openapi({ description: 'The error envelope of a 4xx/5xx answer, parsed; null otherwise.' }),
    warnings: z.array(z.string()),
    at: timestamp,
  })
  .openapi('RequestLogEntry');

/** An account's credentials. */
export const accountCredentialsSchema = z
  .object({
    name: z.string(),
    mode: z.enum(['direct', 'checkout']),
    account_id: z.string(),
    api_key: z.string(),
    jwt_kid: z.string(),
    jwt_private_key_pem: z.string(),
  })
  .openapi('AccountCredentials');

/** An RSA public key as a JWK (RFC 7517), for verifying webhook signatures. */
export const webhookJwkSchema = z
  .object({
    kty: z.literal('RSA'),
    n: z.string(),
    e: z.string(),
    kid: z.string().openapi({ description: 'The RFC 7638 SHA-256 thumbprint of the key.' }),
    alg: z.literal('RS256'),
    use: z.literal('sig'),
  })
  .openapi('WebhookPublicJwk');

/** The webhook public key in every published form. */
export const webhookKeyFormsSchema = z
  .object({
    pem: z.string().openapi({ description: 'SubjectPublicKeyInfo, PEM.' }),
    der_base64: z.string().openapi({ description: 'SubjectPublicKeyInfo, DER, base64 (one line).' }),
    jwk: webhookJwkSchema,
    x509_pem: z.string().openapi({ description: 'A self-signed X.509 certificate of the key, PEM.' }),
  })
  .openapi('WebhookPublicKeyForms');

export const credentialsSchema = z
  .object({
    accounts: z.array(accountCredentialsSchema),
    webhook_public_key_pem: z.string(),
    webhook_public_key: webhookKeyFormsSchema,
  })
  .openapi('Credentials');

export const clockSchema = z.object({ now: timestamp, offset_seconds: z.number() }).openapi('Clock');

export const clockAdvancedSchema = clockSchema.extend({ steps: z.number().int().openapi({ description: 'How many due steps ran.' }) }).openapi('ClockAdvanced');

export const scenarioSummarySchema = z
  .object({
    name: z.string(),
    source: z.string(),
    origin: z.enum(['runtime', 'startup']).openapi({ description: 'runtime: loaded with POST /_sandbox/scenarios (tried first, newest first); startup: a --scenario file or the default scenario.' }),
    description: z.string().nullable(),
    rules: z.array(z.object({ name: z.string(), description: z.string().nullable(), match: scenarioMatchSchema, steps: z.array(scenarioStepSchema) })),
  })
  .openapi('ScenarioSummary');

export type TransactionAction = z.infer<typeof transactionActionSchema>;
export type SubscriptionAction = z.infer<typeof subscriptionActionSchema>;
export type ControlTransaction = z.infer<typeof controlTransactionSchema>;
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;
export type DeliveryState = z.infer<typeof deliveryStateSchema>;
export type Delivery = z.infer<typeof deliverySchema>;
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;
export type DeliverySummary = z.infer<typeof deliverySummarySchema>;
export type DeliveryAttemptSummary = z.infer<typeof deliveryAttemptSummarySchema>;
export type ControlSubscription = z.infer<typeof controlSubscriptionSchema>;
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;
export type AccountCredentials = z.infer<typeof accountCredentialsSchema>;
export type WebhookJwk = z.infer<typeof webhookJwkSchema>;
export type WebhookKeyForms = z.infer<typeof webhookKeyFormsSchema>;
export type Credentials = z.infer<typeof credentialsSchema>;
export type Clock = z.infer<typeof clockSchema>;
export type ClockAdvanced = z.infer<typeof clockAdvancedSchema>;
export type ScenarioSummary = z.infer<typeof scenarioSummarySchema>;
export type Refund = z.infer<typeof refundSchema>;
