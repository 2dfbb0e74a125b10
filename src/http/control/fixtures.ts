/**
 * CI state (contract: "Fixtures and snapshots (CI state)"): `POST /_sandbox/fixtures` applies a
 * fixtures document at run time (as `--fixtures FILE` does at start), `GET
 * /_sandbox/fixtures/schema.json` serves the file's JSON Schema for editors, and `GET
 * /_sandbox/snapshot` answers a consistent copy of the whole state as an SQLite file, which
 * `--restore FILE` starts a sandbox from.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { isoTimestamp } from '../../domain/clock.js';
import type { AppEnv } from '../env.js';
import { loadFixtures } from '../fixtures/apply.js';
import { fixtureFileSchema, fixturesJsonSchema } from '../fixtures/schema.js';
import { controlOperation } from '../openapi/document.js';
import { createRouter } from '../router.js';
import { errorSchema } from '../schemas.js';
import { buyerSchema } from '../routes/buyers.schemas.js';
import { subscriptionResponseSchema } from '../routes/subscriptions.schemas.js';
import { refundSchema, transactionSchema } from '../routes/transactions.schemas.js';

/** Each fixture's name and its object in the answer: one of the four kinds, as the API shows it. */
const fixtureObjectsSchema = z
  .record(z.string(), z.union([transactionSchema, refundSchema, subscriptionResponseSchema, buyerSchema]))
  .openapi('FixtureObjects', { description: "Each fixture's name and its object (transaction, refund, subscription or buyer, in the wire format)." });


/** The fixtures file's JSON Schema (draft 2020-12): its top level, as editors read it. */
const fixturesJsonSchemaDocument = z
  .object({
    $schema: z.string(),
    type: z.literal('object'),
    properties: z.record(z.string(), z.object({ type: z.string().optional(), description: z.string().optional() }).loose()),
    required: z.array(z.string()).optional(),
  })
  .loose()
  .openapi('FixturesJsonSchema');

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } });

/** The media type of a snapshot: an SQLite database file. */
const SNAPSHOT_TYPE = 'application/vnd.sqlite3';

/** The source named in refusals of a document posted at run time. */
const REQUEST_BODY = 'request body';

/** The /_sandbox routes of fixtures and snapshots. */
export function fixtureControlRoutes(): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();

  // The loader's answer is built by the API's own formatters: these shapes.
  const apply = (c: Context<AppEnv>) =>
    loadFixtures(c.get('sandbox'), [{ source: REQUEST_BODY, document: c.get('body') }]) as z.infer<typeof fixtureObjectsSchema>;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/fixtures',
      ...controlOperation,
      operationId: 'loadFixtures',
      summary: 'Apply a fixtures document: create its objects in order, as the API would',
      description:
        'The body is a fixtures file (`--fixtures FILE`; JSON Schema at GET /_sandbox/fixtures/schema.json). Each fixture creates a transaction, refund, subscription or buyer in an account through the API\'s own validation and services (webhooks fire), then optionally settles, fails or advances the clock. `"${name.field}"` in a body is replaced by that field of an earlier fixture\'s object. The document is checked first and applied in one unit of work: a bad one is refused as a whole (400, or the domain\'s 404/409), nothing created, with the failing fixture\'s name and a pointer. The answer maps each name to its object as the API shows it once the whole document was applied.',
      request: { body: { required: true, content: { 'application/json': { schema: fixtureFileSchema.openapi('FixturesFile') } } } },
      responses: {
        201: json(fixtureObjectsSchema, 'Applied'),
        400: json(errorSchema, 'A bad document: nothing was created; the message names the fixture and the pointer, a detail per problem'),
        404: json(errorSchema, 'A refund of a transaction the account does not have: nothing was created'),
        409: json(errorSchema, 'A step the domain refused (e.g. settling a transaction a scenario rule already settled): nothing was created'),
      },
    }),
    (c) => c.json(apply(c), 201),
    // The fixtures loader words the problems (with the fixture's name), not the generic hook.
    (result, c) => {
      if (result.success) return undefined;
      const ctx = c as unknown as Context<AppEnv>;
      return ctx.json(apply(ctx), 201); // refuses (throws) with the loader's message
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/fixtures/schema.json',
      ...controlOperation,
      operationId: 'getFixturesSchema',
      summary: 'The JSON Schema of a fixtures file (for editors: "$schema")',
      responses: { 200: { description: 'JSON Schema (draft 2020-12)', content: { 'application/schema+json': { schema: fixturesJsonSchemaDocument } } } },
    }),
    (c) => {
      const document = fixturesJsonSchema(c.get('sandbox').options.restrictedChannelCode) as z.infer<typeof fixturesJsonSchemaDocument>;
      const res = c.json(document, 200);
      res.headers.set('content-type', 'application/schema+json');
      return res;
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/snapshot',
      ...controlOperation,
      operationId: 'getSnapshot',
      summary: 'A consistent copy of the whole state, as an SQLite file (start a sandbox from it with --restore)',
      description:
        "Every account with its keys, every record, the deliveries, the idempotency keys, the request log and the sandbox clock, copied with SQLite's online backup while the sandbox keeps serving: the copy is consistent as of the end of the backup. Start another sandbox from it with `--restore FILE` (in memory, or into `--db`).",
      responses: { 200: { description: 'The SQLite file', content: { [SNAPSHOT_TYPE]: { schema: z.string().openapi({ format: 'binary' }) } } } },
    }),
    async (c) => {
      const sandbox = c.get('sandbox');
      const bytes = await sandbox.snapshot();
      const stamp = isoTimestamp(sandbox.clock.nowMs()).slice(0, 19).replace(/[-:]/g, '');
      return c.body(new Uint8Array(bytes), 200, {
        'content-type': SNAPSHOT_TYPE,
        'content-disposition': `attachment; filename="payment-sandbox-${stamp}.sqlite"`,
        'cache-control': 'no-store',
      });
    },
  );

  return app;
}
