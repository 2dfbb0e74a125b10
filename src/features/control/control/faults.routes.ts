/** Route definitions of webhook faults and the check-webhooks battery, with their schemas. */
import { createRoute, z } from '@hono/zod-openapi';
import { DELIVERY_FAULTS } from '../../../core/domain/entities.js';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errorSchema, httpUrlSchema } from '../../../core/http/schemas.js';
import { idParam, json } from '../../../core/http/control-route-parts.js';
import { problemWithOrders } from '../../check-webhooks/index.js';
import { deliverySchema } from '../../webhooks/index.js';

/** `{ "fault": "duplicate" | "out_of_order" | "delayed" | "bad_signature", "seconds"?: n }`. */
export const webhookFaultRequestSchema = z
  .object({
    fault: z.enum(DELIVERY_FAULTS).openapi({
      description:
        'duplicate: the payment webhook once more; delayed: once more, `seconds` from now on the sandbox clock; bad_signature: once more with a signature that does not match the body (attempted once); out_of_order: the latest refund webhook, then the payment webhook, in that order.',
    }),
    seconds: z
      .number()
      .int()
      .min(1)
      .max(30 * 24 * 60 * 60)
      .optional()
      .openapi({ description: 'For delayed: sandbox-clock seconds until it is sent.' }),
  })
  .refine((body) => body.fault !== 'delayed' || body.seconds !== undefined, { message: 'A delayed fault needs seconds', path: ['seconds'] })
  .openapi('WebhookFaultRequest');

export const webhookFaultResultSchema = z.object({ deliveries: z.array(deliverySchema) }).openapi('WebhookFaultResult');

/** The check-webhooks report (see `payment-sandbox check-webhooks --json`). */
export const webhookCheckReportSchema = z
  .looseObject({
    url: z.string(),
    passed: z.boolean().openapi({ description: 'True when no case failed (a case that needs orders is not a failure).' }),
    stateUrl: z.string().nullable().optional().openapi({ description: 'The state URL read after each case, null without one.' }),
    needsOrders: z
      .array(z.string())
      .openapi({ description: 'The cases that need orders: the state URL answered 404 for the order the battery made up.' }),
    orders: z.array(z.string()).openapi({ description: 'The orders named in the request, in the order the cases used them.' }),
    checks: z.array(
      z.looseObject({
        id: z.string(),
        title: z.string(),
        passed: z.boolean(),
        outcome: z.enum(['passed', 'failed', 'needs_orders']).openapi({
          description:
            'needs_orders: the handler answered as it must, but the state URL does not know the order the case made up (404); neither a pass nor a failure.',
        }),
        reason: z.string(),
        answerPassed: z.boolean().optional(),
        statePassed: z
          .boolean()
          .nullable()
          .optional()
          .openapi({ description: 'With a state URL: whether the state was right after the case.' }),
      }),
    ),
  })
  .openapi('WebhookCheckReport');

/** The report as the panel reads it. */
export type WebhookCheckReport = z.infer<typeof webhookCheckReportSchema>;
/** A webhook fault the control API takes. */
export type WebhookFaultRequest = z.infer<typeof webhookFaultRequestSchema>;

/** A report as the battery returns it (only what the route shows is named). */
export interface WebhookCheckReportLike {
  url: string;
  passed: boolean;
  needsOrders: string[];
  orders: string[];
  checks: { id: string; title: string; passed: boolean; outcome: 'passed' | 'failed' | 'needs_orders'; reason: string }[];
}

export const injectFault = createRoute({
  method: 'post',
  path: '/transactions/{id}/webhook-faults',
  operationId: 'injectWebhookFault',
  ...controlOperation,
  summary: 'Script a webhook fault on a transaction: a duplicate, delayed, bad-signature or out-of-order copy of its webhooks',
  request: { params: idParam, body: { required: true, content: { 'application/json': { schema: webhookFaultRequestSchema } } } },
  responses: {
    201: json(webhookFaultResultSchema, 'Queued'),
    400: json(errorSchema, 'Bad request'),
    404: json(errorSchema, 'Not found'),
    409: json(errorSchema, 'No webhook (or no refund) yet'),
  },
});

export const checkWebhooks = createRoute({
  method: 'post',
  path: '/check-webhooks',
  operationId: 'checkWebhooks',
  ...controlOperation,
  summary: "Run the check-webhooks battery against a merchant's webhook URL and answer the report, case by case",
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z
            .object({
              url: httpUrlSchema,
              state_url: httpUrlSchema.optional().openapi({
                description:
                  "The merchant test build's order state: after each case GET <state_url>/<merchant_transaction_id> answers {payment_status, refunded_amount?}.",
              }),
              orders: z
                .array(z.string())
                // The battery's own rule (checked when the request is validated, not when this module loads).
                .superRefine((orders, ctx) => {
                  const problem = problemWithOrders(orders);
                  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
                })
                .optional()
                .openapi({
                  description:
                    'With state_url: pending orders the shop created (their external_identifiers); each case that requires an outcome applied uses the next one. Without one left, a 404 from the state URL for the order a case made up makes it needs_orders instead of failed.',
                }),
            })
            .refine((body) => body.orders === undefined || body.state_url !== undefined, {
              message: 'orders needs state_url: the orders are read back through it',
              path: ['orders'],
            })
            .openapi('CheckWebhooksRequest'),
        },
      },
    },
  },
  responses: {
    200: json(webhookCheckReportSchema, 'The report (passed: false when a case failed)'),
    400: json(
      errorSchema,
      'Bad request, or a URL the webhook target guard refuses (link-local, metadata, the sandbox itself, off --webhook-allow-hosts)',
    ),
  },
});

export type InjectFaultRoute = typeof injectFault;
export type CheckWebhooksRoute = typeof checkWebhooks;
