/**
 * The comments of `src/` name only what exists: every file or folder a comment names (a path
 * with a folder, or a file name with its extension) is in the repository, read from the
 * repository's root, from `src/`, from `src/core/` or `src/features/`, or from the commented
 * file's own folder or one above it; a bare file name may be any file of the repository.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const TOP = ['src', 'public', 'test', 'scripts', 'docs', 'examples', 'fixtures', 'scenarios', 'bin', 'docker'];

/** Every file of those folders, by its path from the root. */
const files = TOP.filter((dir) => existsSync(join(ROOT, dir))).flatMap((dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`),
);
const fileNames = new Set(files.map((f) => f.slice(f.lastIndexOf('/') + 1)));
const sources = files.filter((f) => f.startsWith('src/') && f.endsWith('.ts'));

/** The comments of a TypeScript source: block comments and line comments (not in strings, roughly: after code or alone). */
export function commentsOf(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g)) found.push(m[0]);
  return found;
}

const EXTENSIONS = 'ts|js|mjs|cjs|json|md|yaml|yml|html|css|sql';
/** The folders a path without an extension or a trailing slash starts from (`features/control`, `core/http`). */
const FOLDERS = 'src|core|features|test|public|docs|scripts|examples|fixtures|scenarios';
/**
 * A path a comment names: segments of a file or folder name joined by `/` (ending with a file's
 * extension or a `/`, or starting from one of the repository's folders), or a file name with
 * its extension and a stem of two characters or more (`c.json` is a call).
 */
const PATH = new RegExp(
  `(?<![\\w@:/.<>{}*$-])((?:\\.\\.?/)?(?:[\\w.-]+/)+(?:[\\w-]+(?:\\.[\\w-]+)*\\.(?:${EXTENSIONS})|[\\w-]+/)|(?:${FOLDERS})(?:/[\\w-]+)+(?!\\.\\w)|[\\w-]{2,}(?:\\.[\\w-]+)*\\.(?:${EXTENSIONS}))(?![\\w/*<>{}-])`,
  'g',
);

/** Whether `name`, named in a comment of `file`, is a file or folder of the repository. */
export function named(file: string, name: string): boolean {
  const clean = name.replace(/\/$/, '');
  if (!clean.includes('/')) return fileNames.has(clean) || existsSync(join(ROOT, clean)) || existsSync(join(ROOT, 'src', clean));
  const bases = ['', 'src', 'src/core', 'src/features'];
  for (let dir = dirname(file); dir !== '.' && dir !== ''; dir = dirname(dir)) bases.push(dir);
  return bases.some((base) => existsSync(join(ROOT, base, clean)));
}

/** Paths of a comment: what `PATH` finds, less URLs' paths, packages' paths and node: modules. */
export function pathsIn(comment: string): string[] {
  const text = comment.replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, ' '); // URLs
  return [...text.matchAll(PATH)].map((m) => m[1]!).filter((p) => !/^(node_modules|hono|@|node:|dist\/|https?)/.test(p));
}

describe('comments in src/', () => {
  it('find the paths they name (and only those)', () => {
    const comment = `/** Built by \`compose.ts\`; see features/go-live/request-observer.ts and core/http/, https://example.com/a/b.ts, @hono/zod-openapi. */`;
    expect(pathsIn(comment)).toEqual(['compose.ts', 'features/go-live/request-observer.ts', 'core/http/']);
    expect(
      pathsIn('/** Moved out of features/control, beside core/http and src/features/go-live; read/write, application/json. */'),
    ).toEqual(['features/control', 'core/http', 'src/features/go-live']);
  });

  it('name only files and folders the repository holds', () => {
    const missing: string[] = [];
    for (const file of sources) {
      for (const comment of commentsOf(readFileSync(join(ROOT, file), 'utf8')))
        for (const name of pathsIn(comment)) if (!named(file, name)) missing.push(`${relative(ROOT, join(ROOT, file))}: ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
