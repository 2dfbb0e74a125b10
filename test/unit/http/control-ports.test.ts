/**
 * The control API reaches the core only through the deps its router factories declare: no
 * file under src/http/control/ reads the sandbox from the context, touches `stores`, imports
 * `sandbox.ts`, or names a repository of `domain/ports.ts`; and none is over 300 lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../src/http/control/', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

const sources = files(root).map((file) => ({ file: relative(root, file), text: readFileSync(file, 'utf8') }));

describe('src/http/control/', () => {
  it('is one folder per resource, each with its routes, handlers and index', () => {
    const folders = [...new Set(sources.map((s) => s.file.split('/')).filter((parts) => parts.length === 2).map(([folder]) => folder!))].sort();
    expect(folders.length).toBeGreaterThanOrEqual(15);
    for (const folder of folders) {
      for (const part of ['routes', 'handlers', 'index']) expect(sources.some((s) => s.file === `${folder}/${folder}.${part}.ts`), `${folder}/${folder}.${part}.ts`).toBe(true);
    }
  });

  it('takes narrow ports: no sandbox from the context, no stores, no sandbox.ts, no repository', () => {
    const offenders = sources.flatMap(({ file, text }) => {
      const found: string[] = [];
      if (/\.get\(\s*'sandbox'\s*\)/.test(text)) found.push(`${file}: c.get('sandbox')`);
      if (/\bstores\b/.test(text)) found.push(`${file}: stores`);
      if (/from '[./]*sandbox\.js'/.test(text)) found.push(`${file}: imports sandbox.ts`);
      for (const match of text.matchAll(/import[^;]*\{([^}]*)\}\s*from '[./]*domain\/ports\.js'/g)) {
        for (const name of match[1]!.split(',').map((n) => n.replace(/^\s*type\s+/, '').trim())) if (/Repo$|^Repositories$/.test(name)) found.push(`${file}: ${name}`);
      }
      return found;
    });
    expect(offenders).toEqual([]);
  });

  it('has no file over 300 lines and one json helper', () => {
    expect(sources.filter((s) => s.text.split('\n').length > 300).map((s) => s.file)).toEqual([]);
    expect(sources.filter((s) => /const json = </.test(s.text)).map((s) => s.file)).toEqual(['route-parts.ts']);
  });
});
