/**
 * Control API of the faults merchants script to test their own code (sandbox extension,
 * for the panel and CI): `POST /_sandbox/transactions/{id}/webhook-faults` queues a
 * duplicate, delayed, bad-signature or out-of-order webhook of a transaction, and
 * `POST /_sandbox/check-webhooks` runs the check-webhooks battery against a merchant URL
 * and answers its report. The battery itself is handed in by the app (it lives outside the
 * HTTP layer, in src/check-webhooks/).
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { badRequest } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';
import { createRouter } from '../router.js';
import { errorSchema, httpUrlSchema } from '../schemas.js';
import { DELIVERY_FAULTS } from '../../domain/entities.js';
import { deliverySchema } from './schemas.js';
import { controlDelivery } from './views.js';
import { controlOperation } from '../openapi/document.js';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });

/** `{ "fault": "duplicate" | "out_of_order" | "delayed" | "bad_signature", "seconds"?: n }`. */
export const webhookFaultRequestSchema = z
  .object({
    fault: z.enum(DELIVERY_FAULTS).openapi({
      description:
        'duplicate: the payment webhook once more; delayed: once more, `seconds` from now on the sandbox clock; bad_signature: once more with a signature that does not match the body (attempted once); out_of_order: the latest refund webhook, then the payment webhook, in that order.',
    }),
    seconds: z.number().int().min(1).max(30 * 24 * 60 * 60).optional().openapi({ description: 'For delayed: sandbox-clock seconds until it is sent.' }),
  })
  .refine((body) => body.fault !== 'delayed' || body.seconds !== undefined, { message: 'A delayed fault needs seconds', path: ['seconds'] })
  .openapi('WebhookFaultRequest');

export const webhookFaultResultSchema = z.object({ deliveries: z.array(deliverySchema) }).openapi('WebhookFaultResult');

/** The check-webhooks report (see `payment-sandbox check-webhooks --json`). */
export const webhookCheckReportSchema = z
  .looseObject({
    url: z.string(),
    passed: z.boolean(),
    checks: z.array(z.looseObject({ id: z.string(), title: z.string(), passed: z.boolean(), reason: z.string() })),
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
  checks: { id: string; title: string; passed: boolean; reason: string }[];
}

/** What the fault routes need from outside the HTTP layer. */
export interface FaultControlDeps {
  /** Runs the check-webhooks battery against `url`, signing as this sandbox does. */
  checkWebhooks(url: string): Promise<WebhookCheckReportLike>;
}

/** The /_sandbox fault routes. */
export function faultControlRoutes(deps: FaultControlDeps): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/transactions/{id}/webhook-faults',
      operationId: 'injectWebhookFault',
      ...controlOperation,
      summary: "Script a webhook fault on a transaction: a duplicate, delayed, bad-signature or out-of-order copy of its webhooks",
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: webhookFaultRequestSchema } } } },
      responses: { 201: json(webhookFaultResultSchema, 'Queued'), 400: json(errorSchema, 'Bad request'), 404: json(errorSchema, 'Not found'), 409: json(errorSchema, 'No webhook (or no refund) yet') },
    }),
    (c) => {
      const sandbox = c.get('sandbox');
      const { fault, seconds } = c.req.valid('json');
      const queued = sandbox.webhookFaults.inject(c.req.valid('param').id, { kind: fault, ...(seconds !== undefined ? { seconds } : {}) });
      return c.json({ deliveries: queued.map((row) => controlDelivery(sandbox, row)) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/check-webhooks',
      operationId: 'checkWebhooks',
      ...controlOperation,
      summary: "Run the check-webhooks battery against a merchant's webhook URL and answer the report, case by case",
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ url: httpUrlSchema }).openapi('CheckWebhooksRequest') } } } },
      responses: { 200: json(webhookCheckReportSchema, 'The report (passed: false when a case failed)'), 400: json(errorSchema, 'Bad request, or a URL the webhook target guard refuses (link-local, metadata, the sandbox itself, off --webhook-allow-hosts)') },
    }),
    async (c) => {
      const { url } = c.req.valid('json');
      // The webhook target guard, as for a notification_url (issue 22); checked again at connect time.
      const refused = c.get('sandbox').webhookTargetRefused(url);
      if (refused !== null) throw badRequest('Request failed validation', [{ type: 'value_error', pointer: '/url', message: `Webhook target refused: ${refused}`, location: 'body' }]);
      const report = await deps.checkWebhooks(url);
      return c.json(report, 200);
    },
  );

  return app;
}
