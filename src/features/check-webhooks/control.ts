/**
 * `POST /_sandbox/check-webhooks`, its definition, schemas and handler: runs the battery
 * against a merchant's webhook URL, signing as this sandbox's own deliveries do and connecting
 * only where they may, and answers its report case by case.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { badRequest } from '../../core/domain/errors.js';
import { json, type ControlHandler } from '../../core/http/control-route-parts.js';
import type { AppEnv } from '../../core/http/env.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import { createRouter } from '../../core/http/router.js';
import { errorSchema, httpUrlSchema } from '../../core/http/schemas.js';
import { problemWithOrders, type WebhookCheckReport } from './battery.js';

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
export type WebhookCheckReportView = z.infer<typeof webhookCheckReportSchema>;

const checkWebhooksRoute = createRoute({
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

/** What the route uses. */
export interface CheckWebhooksControlDeps {
  /** Why `url` may not receive webhooks, or null (the guard of a notification_url). */
  webhookTargetRefused(url: string): string | null;
  /** Runs the battery against `url`, signing as this sandbox does. */
  checkWebhooks(url: string, stateUrl?: string, orders?: string[]): Promise<WebhookCheckReport>;
}

export function checkWebhooksControlRoutes(deps: CheckWebhooksControlDeps): OpenAPIHono<AppEnv> {
  const check: ControlHandler<typeof checkWebhooksRoute> = async (c) => {
    const { url, state_url: stateUrl, orders } = c.req.valid('json');
    // The webhook target guard, as for a notification_url; checked again at connect time.
    for (const [pointer, target] of [['/url', url] as const, ['/state_url', stateUrl] as const]) {
      const refused = target === undefined ? null : deps.webhookTargetRefused(target);
      if (refused !== null)
        throw badRequest('Request failed validation', [
          { type: 'value_error', pointer, message: `Webhook target refused: ${refused}`, location: 'body' },
        ]);
    }
    return c.json(await deps.checkWebhooks(url, stateUrl, orders), 200);
  };
  return createRouter<AppEnv>().openapi(checkWebhooksRoute, check);
}
