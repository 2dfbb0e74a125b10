/**
 * `GET /_sandbox/webhook-handlers` (the panel's source for the handler picker) answers the
 * README's handler blocks, character for character, in the README's order; the extraction
 * keeps only the six languages and needs a `Run:` line naming the file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeHandlers, type WebhookHandlerExample } from '../../../src/features/webhooks/control/webhook-handlers.index.js';
import { testApp } from '../../support/app.js';

const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

/** The fenced block under `<!-- handler:LANG -->`, found independently of the module under test. */
function readmeBlock(language: string): string {
  const marker = `<!-- handler:${language} -->\n`;
  const at = README.indexOf(marker);
  expect(at, `README has no handler:${language} marker`).toBeGreaterThanOrEqual(0);
  const fenceOpen = README.indexOf('\n', at + marker.length) + 1;
  expect(README.slice(at + marker.length, fenceOpen)).toMatch(/^```[a-z]+\n$/);
  return README.slice(fenceOpen, README.indexOf('\n```\n', fenceOpen));
}

describe('GET /_sandbox/webhook-handlers', () => {
  it("answers the README's six handlers exactly as printed, with their file and run command", async () => {
    const { app } = testApp();
    const res = await app.request('/_sandbox/webhook-handlers');
    expect(res.status).toBe(200);
    const { handlers } = (await res.json()) as { handlers: WebhookHandlerExample[] };
    expect(handlers.map((h) => [h.language, h.name])).toEqual([
      ['node', 'Node.js'],
      ['python', 'Python'],
      ['php', 'PHP'],
      ['ruby', 'Ruby'],
      ['go', 'Go'],
      ['java', 'Java'],
    ]);
    for (const h of handlers) {
      expect(h.code, h.language).toBe(readmeBlock(h.language));
      expect(h.code, h.language).toContain(`Run: ${h.run}`);
      expect(h.run.endsWith(` ${h.file}`), h.language).toBe(true);
    }
  });
});

describe('readmeHandlers', () => {
  it('takes the fenced block under each known marker, blank lines allowed between', () => {
    const text = ['<!-- handler:go -->', '', '```go', '// Run: go run handler.go', 'package main', '```', '', '<!-- handler:cobol -->', '```cobol', '* Run: x handler.cbl', '```', ''].join('\n');
    expect(readmeHandlers(text)).toEqual([{ language: 'go', name: 'Go', file: 'handler.go', run: 'go run handler.go', code: '// Run: go run handler.go\npackage main' }]);
  });

  it('refuses a block without a Run: line naming its file', () => {
    expect(() => readmeHandlers('<!-- handler:ruby -->\n```ruby\nputs 1\n```\n')).toThrow(/handler:ruby has no "Run: \.\.\. <file>" line/);
  });
});
