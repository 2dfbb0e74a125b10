/**
 * `GET /_sandbox/webhook-handlers`: the README's webhook handlers, one per language (contract:
 * "Webhook handlers in every merchant's language"), for the panel's Credentials view. The
 * README is their only copy: each is the fenced block under its `<!-- handler:LANG -->`
 * marker, read from the package's README.md, so the panel shows exactly what the README
 * prints and test/e2e/handlers/handlers.test.ts runs.
 */
import { readFileSync } from 'node:fs';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { packagePath } from '../../config.js';
import { notFound } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';
import { controlOperation } from '../openapi/document.js';
import { createRouter } from '../router.js';
import { errorSchema } from '../schemas.js';

/** The languages, in the README's (and the picker's) order, with their display names. */
export const HANDLER_LANGUAGES = { node: 'Node.js', python: 'Python', php: 'PHP', ruby: 'Ruby', go: 'Go', java: 'Java' } as const;
export type HandlerLanguage = keyof typeof HANDLER_LANGUAGES;

export const webhookHandlerSchema = z
  .object({
    language: z.enum(Object.keys(HANDLER_LANGUAGES) as [HandlerLanguage, ...HandlerLanguage[]]),
    name: z.string().openapi({ example: 'Python' }),
    file: z.string().openapi({ description: 'The file name the run command expects.', example: 'handler.py' }),
    run: z.string().openapi({ description: "The command on the program's first lines (`Run: ...`).", example: 'PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem python3 handler.py' }),
    code: z.string().openapi({ description: 'The complete program, exactly as the README prints it.' }),
  })
  .openapi('WebhookHandler');

export type WebhookHandlerExample = z.infer<typeof webhookHandlerSchema>;

const RUN_LINE = /^(?:\/\/|#) Run: (.+)$/m;

/**
 * The handler blocks of a README text: for each `<!-- handler:LANG -->` marker, the fenced
 * block that follows it (blank lines between are allowed), its text without the fences.
 * @throws Error when a block has no `Run:` line naming its file.
 */
export function readmeHandlers(readme: string): WebhookHandlerExample[] {
  const found: WebhookHandlerExample[] = [];
  for (const match of readme.matchAll(/<!-- handler:([a-z]+) -->\n+```[a-z]*\n([\s\S]*?)\n```\n/g)) {
    const language = match[1]!;
    if (!(language in HANDLER_LANGUAGES)) continue;
    const code = match[2]!;
    const run = RUN_LINE.exec(code)?.[1]?.trim();
    const file = run?.split(/\s+/).at(-1);
    if (run === undefined || file === undefined || !/^\w[\w.-]*\.\w+$/.test(file)) throw new Error(`README handler:${language} has no "Run: ... <file>" line`);
    found.push({ language: language as HandlerLanguage, name: HANDLER_LANGUAGES[language as HandlerLanguage], file, run, code });
  }
  return found;
}

let cached: WebhookHandlerExample[] | undefined;

/** The handlers of the package's README.md, read once. */
function packageHandlers(): WebhookHandlerExample[] {
  if (cached === undefined) {
    let readme: string;
    try {
      readme = readFileSync(packagePath('README.md'), 'utf8');
    } catch {
      throw notFound('The webhook handlers come from the package README.md, which this installation lacks');
    }
    cached = readmeHandlers(readme);
  }
  return cached;
}

/** The /_sandbox/webhook-handlers route. */
export function webhookHandlerRoutes(): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/webhook-handlers',
      operationId: 'listWebhookHandlers',
      ...controlOperation,
      summary: "The README's webhook handler in each language (Node.js, Python, PHP, Ruby, Go, Java), each a complete program that verifies the signature over the raw body",
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: z.object({ handlers: z.array(webhookHandlerSchema) }).openapi('WebhookHandlers') } } },
        404: { description: 'README.md missing from the installation', content: { 'application/json': { schema: errorSchema } } },
      },
    }),
    (c) => c.json({ handlers: packageHandlers() }, 200),
  );
  return app;
}
