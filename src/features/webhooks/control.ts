/**
 * The webhooks' control routes, their definitions and handlers: the published webhook key
 * (`GET /_sandbox/webhook-public-key`, PEM, DER, JWK or X.509), the delivery log with every
 * attempt (bodies on `/deliveries/{id}`) and resending one, the workbench
 * (`POST /_sandbox/webhooks/send` queues any body as a signed delivery,
 * `POST /_sandbox/signatures/explain` names why a signature check failed), and the webhook
 * handler in each language (`GET /_sandbox/webhook-handlers`, the package's handler files).
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { controlOperation } from '../../core/http/openapi/document.js';
import { errors, type ControlHandler, accountQuery, idParam, json, accountOr404 } from '../../core/http/control-route-parts.js';
import {
  webhookJwkSchema,
  deliverySchema,
  deliverySummarySchema,
  type Delivery as DeliveryView,
  type DeliverySummary,
  explainRequestSchema,
  explanationSchema,
  sendWebhookRequestSchema,
} from './control.schemas.js';
import { WEBHOOK_KEY_FORMATS, webhookKeyAs } from './webhook-key-forms.js';
import type { AppEnv } from '../../core/http/env.js';
import { createRouter } from '../../core/http/router.js';
import { pageQuerySchema, pageSchema, pageEnvelope, pageRequest } from '../../core/http/pagination.js';
import type { Core } from '../../core/core.js';
import type { Delivery } from '../../core/domain/entities.js';
import { notFound } from '../../core/domain/errors.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { DeliveryQueries } from '../../core/domain/queries.js';
import type { DeliveryViews } from './delivery-views.js';
import type { SignatureExplainer } from './signature-explain.js';
import type { WebhookSender } from './webhook-send.js';
import { errorSchema } from '../../core/http/schemas.js';
import { webhookHandlerSchema, handlerFiles, type WebhookHandlerExample } from './webhook-handler-files.js';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../core/config.js';

const webhookKeyQuery = z.object({
  format: z.enum(WEBHOOK_KEY_FORMATS).default('pem').openapi({
    description:
      'pem: SPKI PEM (default); der: SPKI DER in base64, one line; jwk: a JWK (RFC 7517) with kid, alg and use; x509: a self-signed X.509 certificate (PEM) of the key.',
  }),
});

export const getWebhookKey = createRoute({
  method: 'get',
  path: '/webhook-public-key',
  ...controlOperation,
  operationId: 'getWebhookPublicKey',
  summary: 'The webhook public key, in the form `format` names',
  description:
    'Verify the `signature` header (base64 RSA-SHA256 of the raw body) with this key. `?format=pem` (default) serves the SubjectPublicKeyInfo as PEM; `der` the same SPKI as base64 DER on one line (text/plain); `jwk` a JWK (application/jwk+json) with kid (RFC 7638 thumbprint), alg RS256 and use sig; `x509` a self-signed X.509 certificate of the key (PEM). The key is the published demo key: the same on every start.',
  request: { query: webhookKeyQuery },
  responses: {
    200: {
      description: 'The key',
      content: {
        'application/x-pem-file': { schema: z.string().openapi({ description: 'format=pem (PUBLIC KEY) or format=x509 (CERTIFICATE)' }) },
        'text/plain': { schema: z.string().openapi({ description: 'format=der: base64 of the DER SubjectPublicKeyInfo' }) },
        'application/jwk+json': { schema: webhookJwkSchema },
      },
    },
    400: errors[400],
  },
});

export type GetWebhookKeyRoute = typeof getWebhookKey;

const getWebhookKeyHandler: ControlHandler<GetWebhookKeyRoute> = async (c) => {
  const { body, contentType } = await webhookKeyAs(c.req.valid('query').format);
  return c.body(body, 200, { 'content-type': contentType });
};

export function webhookKeyControlRoutes(): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(getWebhookKey, getWebhookKeyHandler);
}

/** The query of `GET /_sandbox/deliveries`: the page, and the account (default: every account). */
export const deliveryListQuerySchema = pageQuerySchema.extend(accountQuery.shape);

export const listDeliveries = createRoute({
  method: 'get',
  path: '/deliveries',
  ...controlOperation,
  operationId: 'listDeliveries',
  summary: 'Webhook delivery log with every attempt (without its bodies), newest first',
  request: { query: deliveryListQuerySchema },
  responses: { 200: json(pageSchema(deliverySummarySchema, 'DeliveryPage')), 400: errors[400], 404: errors[404] },
});

export const getDelivery = createRoute({
  method: 'get',
  path: '/deliveries/{id}',
  ...controlOperation,
  operationId: 'getDelivery',
  summary: 'One delivery with every attempt and its request and response bodies (an answer is kept up to 4 KiB)',
  request: { params: idParam },
  responses: { 200: json(deliverySchema), 404: errors[404] },
});

export const resendDelivery = createRoute({
  method: 'post',
  path: '/deliveries/{id}/resend',
  ...controlOperation,
  operationId: 'resendDelivery',
  summary: 'Send a delivery again: same body, fresh timestamp and signature',
  request: { params: idParam },
  responses: { 202: json(deliverySchema, 'Queued'), 404: errors[404] },
});

export type ListDeliveriesRoute = typeof listDeliveries;
export type GetDeliveryRoute = typeof getDelivery;
export type ResendDeliveryRoute = typeof resendDelivery;

/** What the delivery routes use. */
export interface DeliveryControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  deliveries: Pick<DeliveryQueries, 'byId' | 'page' | 'pageAll'>;
  /** Queues a delivery again now: same body, fresh timestamp and signature. */
  dispatcher: Core['dispatcher'];
  views: DeliveryViews;
}

/** A delivery as a list shows it: each attempt without its request and response bodies. */
export function deliverySummary(delivery: DeliveryView): DeliverySummary {
  return { ...delivery, attempts: delivery.attempts.map(({ response_body: _response, ...attempt }) => attempt) };
}

export function deliveryHandlers(deps: DeliveryControlDeps) {
  const summary = (row: Delivery): DeliverySummary => deliverySummary(deps.views.delivery(row));
  const list: ControlHandler<ListDeliveriesRoute> = (c) => {
    const query = c.req.valid('query');
    const account = accountOr404(deps.accounts, query.account_id);
    const scope = { list: '_sandbox/deliveries', scope: account?.id ?? '*' };
    const req = pageRequest(query, scope);
    const page = account ? deps.deliveries.page(account.id, req) : deps.deliveries.pageAll(req);
    return c.json(pageEnvelope(page, query.limit, summary, scope), 200);
  };

  const get: ControlHandler<GetDeliveryRoute> = (c) => {
    const { id } = c.req.valid('param');
    const row = deps.deliveries.byId(id);
    if (!row) throw notFound(`Delivery ${id} not found`);
    return c.json(deps.views.delivery(row), 200);
  };

  const resend: ControlHandler<ResendDeliveryRoute> = (c) => {
    const { id } = c.req.valid('param');
    const row = deps.dispatcher.resend(id);
    if (!row) throw notFound(`Delivery ${id} not found`);
    return c.json(deps.views.delivery(row), 202);
  };

  return { list, get, resend };
}

export function deliveryControlRoutes(deps: DeliveryControlDeps): OpenAPIHono<AppEnv> {
  const handlers = deliveryHandlers(deps);
  return createRouter<AppEnv>()
    .openapi(listDeliveries, handlers.list)
    .openapi(getDelivery, handlers.get)
    .openapi(resendDelivery, handlers.resend);
}

export const sendWebhook = createRoute({
  method: 'post',
  path: '/webhooks/send',
  ...controlOperation,
  operationId: 'sendWebhook',
  summary: 'Send any body as a webhook, signed as every delivery is, with the same retries, log, faults and target guard',
  request: { body: { required: true, content: { 'application/json': { schema: sendWebhookRequestSchema } } } },
  responses: {
    201: json(deliverySchema, 'Queued'),
    400: json(errors[400].content['application/json'].schema, 'Bad request, no URL, or a URL the webhook target guard refuses'),
    404: errors[404],
  },
});

export const explainSignature = createRoute({
  method: 'post',
  path: '/signatures/explain',
  ...controlOperation,
  operationId: 'explainSignature',
  summary: 'Say why a webhook signature check fails: one cause, the first differing byte and the fix',
  request: { body: { required: true, content: { 'application/json': { schema: explainRequestSchema } } } },
  responses: { 200: json(explanationSchema), 400: errors[400], 404: errors[404] },
});

export type SendWebhookRoute = typeof sendWebhook;
export type ExplainSignatureRoute = typeof explainSignature;

/** What the workbench routes use. */
export interface WorkbenchControlDeps {
  sender: WebhookSender;
  explainer: SignatureExplainer;
  views: DeliveryViews;
}

export function workbenchHandlers(deps: WorkbenchControlDeps) {
  const send: ControlHandler<SendWebhookRoute> = (c) => {
    const { account_id, url, body } = c.req.valid('json');
    return c.json(deps.views.delivery(deps.sender.send({ accountId: account_id, url, body })), 201);
  };

  const explain: ControlHandler<ExplainSignatureRoute> = (c) => {
    const r = c.req.valid('json');
    const answer = deps.explainer.explain({
      body: r.body,
      bodyBase64: r.body_base64,
      signature: r.signature,
      deliveryId: r.delivery_id,
      publicKey: r.public_key,
    });
    return c.json(answer, 200);
  };

  return { send, explain };
}

export function workbenchControlRoutes(deps: WorkbenchControlDeps): OpenAPIHono<AppEnv> {
  const handlers = workbenchHandlers(deps);
  return createRouter<AppEnv>().openapi(sendWebhook, handlers.send).openapi(explainSignature, handlers.explain);
}

export const listWebhookHandlers = createRoute({
  method: 'get',
  path: '/webhook-handlers',
  operationId: 'listWebhookHandlers',
  ...controlOperation,
  summary:
    'The webhook handler in each language (Node.js, Python, PHP, Ruby, Go, Java), each a complete program that verifies the signature over the raw body',
  responses: {
    200: {
      description: 'OK',
      content: { 'application/json': { schema: z.object({ handlers: z.array(webhookHandlerSchema) }).openapi('WebhookHandlers') } },
    },
    404: {
      description: 'The handler files (examples/webhook-handlers/) missing from the installation',
      content: { 'application/json': { schema: errorSchema } },
    },
  },
});

export type ListWebhookHandlersRoute = typeof listWebhookHandlers;

/** Where the handlers come from: the package's `examples/webhook-handlers/` unless told otherwise. */
export interface WebhookHandlerOptions {
  /** The text of a file given by its path in the package; throws when there is none. */
  readFile?: (path: string) => string;
}

export function webhookHandlerHandlers({
  readFile = (path) => readFileSync(packagePath(...path.split('/')), 'utf8'),
}: WebhookHandlerOptions = {}) {
  let cached: WebhookHandlerExample[] | undefined;
  const handlers = (): WebhookHandlerExample[] => {
    if (cached === undefined) {
      try {
        cached = handlerFiles(readFile);
      } catch {
        throw notFound('The webhook handlers come from the package folder examples/webhook-handlers/, which this installation lacks');
      }
    }
    return cached;
  };
  const list: ControlHandler<ListWebhookHandlersRoute> = (c) => c.json({ handlers: handlers() }, 200);
  return { list };
}

export function webhookHandlerRoutes(options: WebhookHandlerOptions = {}): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(listWebhookHandlers, webhookHandlerHandlers(options).list);
}
