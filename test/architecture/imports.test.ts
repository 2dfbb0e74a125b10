/**
 * The architecture, kept: dependencies run one way (HTTP → domain ← store / webhooks /
 * scenarios, wired in one composition root), and no two files import each other, directly
 * or round a circle. Reads every import of src/ (type-only imports count too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s([^'"]*?)from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

interface Imports {
  /** Files of src/ it imports, type-only imports included. */
  files: string[];
  /** Files of src/ it imports values from (code that runs). */
  valueFiles: string[];
  packages: string[];
}

/** Each file of src/ (relative, e.g. `domain/transactions.ts`) with what it imports. */
function importGraph(): Map<string, Imports> {
  const graph = new Map<string, Imports>();
  for (const path of sourceFiles(SRC)) {
    const text = readFileSync(path, 'utf8');
    const imports: Imports = { files: [], valueFiles: [], packages: [] };
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[2] ?? match[3] ?? match[4]!;
      const typeOnly = /^\s*type\s/.test(match[1] ?? '');
      if (!spec.startsWith('.')) {
        imports.packages.push(spec);
        continue;
      }
      const file = relative(SRC, resolve(dirname(path), spec)).replace(/\.js$/, '.ts');
      imports.files.push(file);
      if (!typeOnly) imports.valueFiles.push(file);
    }
    graph.set(relative(SRC, path), imports);
  }
  return graph;
}

/** The layer of a file: its folder under src/, or the file's own name for top-level files. */
const layerOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file.replace(/\.ts$/, ''));

/** Which layers each layer may import (besides itself). Top-level files not listed may import anything. */
const ALLOWED: Record<string, readonly string[]> = {
  domain: [],
  store: ['domain'],
  webhooks: ['domain', 'wire'],
  scenarios: ['domain'],
  wire: ['domain'],
  http: ['domain', 'wire', 'sandbox', 'config', 'log'],
  sandbox: ['domain', 'config', 'scenarios'],
  compose: ['domain', 'store', 'webhooks', 'scenarios', 'config', 'sandbox', 'log'],
  'check-webhooks': ['domain', 'webhooks', 'config'],
};

/**
 * Single files another layer may import: the scenario-file format (a zod schema, no code
 * that runs scenarios) describes `GET /_sandbox/scenarios` and validates scenarios loaded at
 * run time.
 */
const SHARED_FILES: Record<string, readonly string[]> = {
  http: ['scenarios/schema.ts'],
  // The HTTP layer's own ports (idempotency, request log) live with their consumer; the store implements them.
  store: ['http/ports.ts'],
  compose: ['http/ports.ts'],
  sandbox: ['http/ports.ts'],
};

/** Packages that tie a file to a layer it must not be in. */
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  domain: /^(hono|@hono\/|better-sqlite3|zod|node:http|node:net|commander)/,
  store: /^(hono|@hono\/|commander)/,
  webhooks: /^(hono|@hono\/|better-sqlite3|commander)/,
  scenarios: /^(hono|@hono\/|better-sqlite3|commander)/,
};

describe('architecture', () => {
  const graph = importGraph();

  it('reads the source tree', () => {
    expect(graph.size).toBeGreaterThan(30);
    expect(graph.get('domain/transactions.ts')?.files).toContain('domain/ports.ts');
  });

  it('keeps http/ports.ts a file of types over the domain only (the store may import it)', () => {
    const { files, valueFiles } = graph.get('http/ports.ts')!;
    expect(files.filter((f) => layerOf(f) !== 'domain')).toEqual([]);
    expect(valueFiles).toEqual([]);
    const storeValueImports = [...graph].filter(([file, { valueFiles: v }]) => layerOf(file) === 'store' && v.includes('http/ports.ts')).map(([file]) => file);
    expect(storeValueImports).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file)?.files ?? []) {
        if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('imports only in the allowed direction: HTTP → domain ← store, webhooks, scenarios', () => {
    const wrong: string[] = [];
    for (const [file, { files }] of graph) {
      const layer = layerOf(file);
      const allowed = ALLOWED[layer];
      if (!allowed) continue;
      for (const target of files) {
        const to = layerOf(target);
        if (to !== layer && !allowed.includes(to) && !SHARED_FILES[layer]?.includes(target)) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps Hono, SQL and HTTP out of the domain, and Hono out of the other inner layers', () => {
    const wrong: string[] = [];
    for (const [file, { packages }] of graph) {
      const forbidden = FORBIDDEN_PACKAGES[layerOf(file)];
      for (const pkg of packages) if (forbidden?.test(pkg)) wrong.push(`${file} → ${pkg}`);
    }
    expect(wrong).toEqual([]);
  });

  it('builds the services in one composition root: only compose.ts runs code of the store, the outbox, the dispatcher and the scenario runner', () => {
    const built = /^(store\/|webhooks\/(outbox|dispatcher)\.ts$|scenarios\/(runner|policy)\.ts$)/;
    const outside = [...graph]
      .filter(([file, { valueFiles }]) => file !== 'compose.ts' && layerOf(file) !== 'store' && valueFiles.some((f) => built.test(f) && layerOf(f) !== layerOf(file)))
      .map(([file]) => file);
    expect(outside).toEqual([]);
  });
});
