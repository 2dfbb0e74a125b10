/**
 * The OpenAPI 3.1 document at `/openapi.json`: its info, tags, security scheme and webhooks,
 * and the OpenAPI metadata every operation outside /v4 shares. Operations are described by
 * their routes (`createRoute`, or `registerPath` beside a plain handler); this module only
 * adds what belongs to the document as a whole, and the pages that are not routes of a router.
 *
 * The emulated API's paths are relative to the document's server, `<base>/v4`, as the spec's are to a production `base_url`, so a client generated
 * from the document and pointed at either calls the right paths; every other path (control,
 * pages) names its own server, the sandbox's base URL.
 *
 * Every operation has an `operationId`; every operation outside /v4 declares `security: []`
 * (`controlOperation`, `pageOperation`). test/api/core/http/openapi-lint.test.ts holds the document to
 * Redocly's recommended rules and to "every route the app serves is documented".
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env.js';
import { withTransportResponses } from './statuses.js';
import { registerWebhooks } from './webhooks.js';

/** An OpenAPI security requirement: scheme name to scopes. */
type SecurityRequirement = Record<string, string[]>;

/** The metadata of every /_sandbox operation: its tag, and no credentials (`security: []`). */
export const controlOperation: { tags: string[]; security: SecurityRequirement[] } = {
  tags: ['Sandbox control (extension)'],
  security: [],
};

/** The metadata of the HTML pages and documents the sandbox serves beside the API. */
export const pageOperation: { tags: string[]; security: SecurityRequirement[] } = {
  tags: ['Pages and documents (extension)'],
  security: [],
};

const TAGS = [
  { name: 'Transactions', description: 'Payments: create (direct card data or a checkout link), read, list.' },
  { name: 'Refunds', description: 'Refunds of SUCCEEDED payments.' },
  { name: 'Subscriptions', description: 'Recurring payments on a plan, charged on the sandbox clock.' },
  { name: 'Buyers', description: 'The buyers of an account.' },
  { name: 'Webhooks', description: 'What the sandbox POSTs to the merchant: the payment and refund webhooks, signed.' },
  {
    name: 'Sandbox control (extension)',
    description:
      "Not part of the emulated API: the panel's and CI's control of the sandbox (outcomes, clock, logs, reset). No credentials.",
  },
  {
    name: 'Pages and documents (extension)',
    description: 'Not part of the emulated API: the hosted payment page, the panel, this document and its reference page.',
  },
];

/** The package version the document states. */
const VERSION = '0.1.0';

/** What the document needs besides the app's routes. */
export interface OpenApiDocumentOptions {
  /** The sandbox's base URL now (the server sets it once it listens): the document's servers. */
  baseUrl(): string;
}

/**
 * Serves the document at `/openapi.json` from everything registered on `app`, with the
 * webhooks, the bearer security scheme and the entries of the document and the panel.
 */
export function serveOpenApiDocument(app: OpenAPIHono<AppEnv>, options: OpenApiDocumentOptions): void {
  const registry = app.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'sk_test_ API key or RS256 JWT',
  });
  registerWebhooks(registry);
  registry.registerPath({
    method: 'get',
    path: '/openapi.json',
    ...pageOperation,
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } } },
  });
  registry.registerPath({
    method: 'get',
    path: '/',
    ...pageOperation,
    operationId: 'getPanel',
    summary: 'The control panel (HTML); its scripts, styles and icons are static files of the same origin',
    responses: { 200: { description: 'The panel', content: { 'text/html': { schema: { type: 'string' } } } } },
  });
  const config = {
    openapi: '3.1.0',
    info: {
      title: 'payment-sandbox',
      version: VERSION,
      description:
        "Local emulator of the Payment Service API. The API's paths are relative to the server `{base}/v4`, as the spec's are to `base_url`; " +
        'paths under /_sandbox, the pages and fields marked "Sandbox extension" are not part of the emulated API. ' +
        'A method a path does not document is 405 method_not_allowed with an Allow header.',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    tags: TAGS,
  };
  let document: { base: string; doc: OpenApiDocument } | undefined;
  app.get('/openapi.json', (c) => {
    const base = options.baseUrl().replace(/\/+$/, '');
    if (document?.base !== base)
      document = { base, doc: relativeToV4(withTransportResponses(withGuardResponses(app.getOpenAPI31Document(config))), base) };
    return c.json(document.doc);
  });
}

/** Whether a served path is one of the emulated API's (`/v4/...`). */
const isV4Path = (path: string): boolean => path === '/v4' || path.startsWith('/v4/');

/**
 * The document with `servers: [{"url": "<base>/v4"}]` and the /v4 paths relative to it
 * (`/transactions`, ...); every other path item keeps its path and names `<base>` as its own
 * server. The spec's `/buyers` without the prefix is the same operation as `/v4/buyers`, so
 * the document keeps it once (the relative `/buyers`).
 */
function relativeToV4(doc: OpenApiDocument, base: string): OpenApiDocument {
  const entries = Object.entries(doc.paths ?? {});
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const [path, item] of entries) if (isV4Path(path) && item) paths[path.slice('/v4'.length) || '/'] = item;
  for (const [path, item] of entries) {
    if (isV4Path(path) || !item || Object.hasOwn(paths, path)) continue;
    paths[path] = { ...item, servers: [{ url: base, description: 'The sandbox itself: not part of the emulated API' }] };
  }
  return {
    ...doc,
    servers: [{ url: `${base}/v4`, description: "The emulated Payment Service API (the spec's base_url, which ends in /v4)" }],
    paths,
  };
}

type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>['getOpenAPI31Document']>;

/**
 * Outside the emulated API, every operation can be refused before its route runs
 * (`http/security.ts`): a Host the sandbox does not serve or a cross-site browser request
 * (403), and, with `--admin-token`, a call without the token (401; health and the webhook
 * key excepted). Declared once here rather than on each route.
 */
function withGuardResponses(doc: OpenApiDocument): OpenApiDocument {
  const error = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (path === '/buyers' || path.startsWith('/v4/') || !item) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const op = item[method];
      if (!op?.responses) continue;
      op.responses['403'] ??= {
        description: 'Refused: a Host the sandbox does not serve (see --allowed-hosts), or a cross-site browser request',
        content: error,
      };
      if (path.startsWith('/_sandbox/') && path !== '/_sandbox/health' && path !== '/_sandbox/webhook-public-key') {
        op.responses['401'] ??= { description: 'With --admin-token: the token is missing or wrong', content: error };
      }
    }
  }
  return doc;
}
