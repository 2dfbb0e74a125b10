/**
 * `GET /_sandbox/webhook-handlers` (the panel's source for the handler picker) answers the
 * package's handler files, `examples/webhook-handlers/<language>/<file>`, character for
 * character, in the picker's order; each file's first comment line is its `Run:` command, and
 * the answer needs no README.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRouter } from '../../../src/core/http/router.js';
import { errorHandler } from '../../../src/core/http/errors.js';
import { webhookHandlerRoutes } from '../../../src/features/webhooks/control.js';
import { handlerFiles, type WebhookHandlerExample } from '../../../src/features/webhooks/webhook-handler-files.js';
import { describe, expect, it } from 'vitest';
import { testApp } from '../../support/app.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FILES = {
  node: 'examples/webhook-handlers/node/handler.mjs',
  python: 'examples/webhook-handlers/python/handler.py',
  php: 'examples/webhook-handlers/php/handler.php',
  ruby: 'examples/webhook-handlers/ruby/handler.rb',
  go: 'examples/webhook-handlers/go/main.go',
  java: 'examples/webhook-handlers/java/Handler.java',
};

describe('GET /_sandbox/webhook-handlers', () => {
  it('answers the six handler files exactly as they are, with their path, file and run command', async () => {
    const { app } = testApp();
    const res = await app.request('/_sandbox/webhook-handlers');
    expect(res.status).toBe(200);
    const { handlers } = (await res.json()) as { handlers: WebhookHandlerExample[] };
    expect(handlers.map((h) => [h.language, h.name, h.path])).toEqual([
      ['node', 'Node.js', FILES.node],
      ['python', 'Python', FILES.python],
      ['php', 'PHP', FILES.php],
      ['ruby', 'Ruby', FILES.ruby],
      ['go', 'Go', FILES.go],
      ['java', 'Java', FILES.java],
    ]);
    for (const h of handlers) {
      expect(h.code, h.language).toBe(readFileSync(ROOT + h.path, 'utf8'));
      expect(h.path.endsWith(`/${h.file}`), h.language).toBe(true);
      // The first comment line is the run command, naming the file and the key variable.
      const firstComment = h.code.split('\n').find((line) => /^(\/\/|#)/.test(line));
      expect(firstComment, h.language).toBe(`${h.language === 'python' || h.language === 'ruby' ? '#' : '//'} Run: ${h.run}`);
      expect(h.run, h.language).toContain('PAYMENT_SANDBOX_PUBLIC_KEY=');
      expect(h.run.endsWith(` ${h.file}`), h.language).toBe(true);
    }
  });

  it('reads no README: the handlers come from their files alone', () => {
    const read: string[] = [];
    const handlers = handlerFiles((path) => {
      read.push(path);
      return readFileSync(ROOT + path, 'utf8');
    });
    expect(handlers).toHaveLength(6);
    expect(read).toEqual(Object.values(FILES));
  });

  it('answers 404 in the error envelope when the installation lacks the handler files', async () => {
    const app = createRouter();
    app.route(
      '/_sandbox',
      webhookHandlerRoutes({
        readFile: () => {
          throw new Error('ENOENT');
        },
      }),
    );
    app.onError(errorHandler({ error: () => undefined }));
    const res = await app.request('/_sandbox/webhook-handlers');
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.message).toContain('examples/webhook-handlers/');
  });
});

describe('handlerFiles', () => {
  it('refuses a file without a Run: line naming its own file', () => {
    expect(() => handlerFiles((path) => (path.endsWith('main.go') ? 'package main\n' : readFileSync(ROOT + path, 'utf8')))).toThrow(
      /examples\/webhook-handlers\/go\/main\.go has no "Run: \.\.\. main\.go" line/,
    );
  });
});
