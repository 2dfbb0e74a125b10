/**
 * The webhook handlers, one program per language, each a file of the package:
 * `examples/webhook-handlers/<language>/<file>`, whose first comment line says how to run it
 * (`Run: ...`). The panel shows these files and test/e2e/handlers/ runs them.
 */
import { z } from '@hono/zod-openapi';

/** The languages, in the picker's order, with their display names and file names. */
export const HANDLER_LANGUAGES = { node: 'Node.js', python: 'Python', php: 'PHP', ruby: 'Ruby', go: 'Go', java: 'Java' } as const;
export type HandlerLanguage = keyof typeof HANDLER_LANGUAGES;

/** The file of each language's handler, under `examples/webhook-handlers/<language>/`. */
export const HANDLER_FILES: Record<HandlerLanguage, string> = {
  node: 'handler.mjs',
  python: 'handler.py',
  php: 'handler.php',
  ruby: 'handler.rb',
  go: 'main.go',
  java: 'Handler.java',
};

/** The folder of the handlers inside the package. */
export const HANDLERS_FOLDER = ['examples', 'webhook-handlers'] as const;

export const webhookHandlerSchema = z
  .object({
    language: z.enum(Object.keys(HANDLER_LANGUAGES) as [HandlerLanguage, ...HandlerLanguage[]]),
    name: z.string().openapi({ example: 'Python' }),
    file: z.string().openapi({ description: 'The file name the run command expects.', example: 'handler.py' }),
    path: z.string().openapi({ description: "The file's path in the package.", example: 'examples/webhook-handlers/python/handler.py' }),
    run: z.string().openapi({
      description: "The command on the program's first comment line (`Run: ...`).",
      example: 'PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem python3 handler.py',
    }),
    code: z.string().openapi({ description: 'The complete program, exactly as the file holds it.' }),
  })
  .openapi('WebhookHandler');

export type WebhookHandlerExample = z.infer<typeof webhookHandlerSchema>;

const RUN_LINE = /^(?:\/\/|#) Run: (.+)$/m;

/**
 * Every language's handler, read with `read` (given the path relative to the package, e.g.
 * `examples/webhook-handlers/go/main.go`).
 * @throws Error when a file has no `Run: ...` line ending with its own file name.
 */
export function handlerFiles(read: (path: string) => string): WebhookHandlerExample[] {
  return (Object.keys(HANDLER_LANGUAGES) as HandlerLanguage[]).map((language) => {
    const file = HANDLER_FILES[language];
    const path = [...HANDLERS_FOLDER, language, file].join('/');
    const code = read(path);
    const run = RUN_LINE.exec(code)?.[1]?.trim();
    if (run === undefined || run.split(/\s+/).at(-1) !== file) throw new Error(`${path} has no "Run: ... ${file}" line`);
    return { language, name: HANDLER_LANGUAGES[language], file, path, run, code };
  });
}
