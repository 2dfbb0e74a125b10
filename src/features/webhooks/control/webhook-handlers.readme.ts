/**
 * The README's webhook handlers, one per language (contract: "Webhook handlers in every
 * merchant's language"). The README is their only copy: each is the fenced block under its
 * `<!-- handler:LANG -->` marker, so the panel shows exactly what the README prints and
 * test/e2e/handlers/handlers.test.ts runs.
 */
import { z } from '@hono/zod-openapi';

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
