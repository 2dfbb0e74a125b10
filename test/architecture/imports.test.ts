/**
 * The architecture, kept: dependencies run one way (HTTP → domain ← store / webhooks /
 * scenarios, with the application services over the domain, all wired in one composition
 * root), and no two files import each other, directly or round a circle. Reads every import
 * of src/ (type-only imports count too), and the source text where an import is not enough:
 * each router gets only the ports it uses, never the whole sandbox, and no file grows past
 * 300 lines.
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

/** The text of a file of src/ without its comments (so a comment naming `stores` is no use of it). */
function code(file: string): string {
  return readFileSync(join(SRC, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The part of `text` from the bracket at `open` to its match (`(`…`)` or `{`…`}`), brackets included. */
function balanced(text: string, open: number): string {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '<': '>' };
  const start = text[open]!;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === start) depth++;
    else if (text[i] === pairs[start]) depth--;
    if (depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** The top-level member names of an object type's `{ … }` text. */
function membersOf(block: string): string[] {
  let flat = '';
  let depth = 0;
  for (const ch of block.slice(1, -1)) {
    if ('{(<['.includes(ch)) depth++;
    if (depth === 0) flat += ch;
    if ('})>]'.includes(ch)) depth--;
  }
  return [...flat.matchAll(/(?:^|[;,\n])\s*(?:readonly\s+)?(\w+)\??\s*[:(<]/g)].map((m) => m[1]!);
}

/** Files of src/ that `file` imports with a relative path, resolved (e.g. `http/control/clock/clock.handlers.ts`). */
function relativeImports(file: string, graph: Map<string, Imports>): string[] {
  return graph.get(file)?.files ?? [];
}

interface RouterFactory {
  file: string;
  name: string;
  /** The declared type of its first parameter, as written (empty when it takes none). */
  type: string;
  /** Its members, when the type is an object type this test can find; undefined otherwise. */
  members?: string[];
  /** The file that declares the type (the factory's own, or one it imports). */
  declaredIn?: string;
  /** The declaration's text, left out when looking for uses. */
  declaration?: string;
}

/** Every exported function of src/http named `*Routes`, with the type of its deps. */
function routerFactories(graph: Map<string, Imports>): RouterFactory[] {
  const factories: RouterFactory[] = [];
  for (const file of graph.keys()) {
    if (layerOf(file) !== 'http') continue;
    const text = code(file);
    for (const match of text.matchAll(/export\s+(?:async\s+)?function\s+(\w+Routes)\s*(?:<[^>]*>)?\s*\(/g)) {
      const params = balanced(text, match.index + match[0].length - 1).slice(1, -1);
      const colon = params.search(/:/);
      let type = colon < 0 ? '' : params.slice(colon + 1);
      if (!type.trimStart().startsWith('{')) type = type.split(/[,=]/)[0]!;
      else type = balanced(type, type.indexOf('{'));
      type = type.trim();
      const factory: RouterFactory = { file, name: match[1]!, type };
      if (type.startsWith('{')) Object.assign(factory, { members: membersOf(type), declaredIn: file, declaration: type });
      else if (/^[A-Z]\w*$/.test(type)) {
        for (const candidate of [file, ...relativeImports(file, graph)]) {
          const source = graph.has(candidate) ? code(candidate) : '';
          const decl = new RegExp(`(?:interface\\s+${type}\\b[^{]*|type\\s+${type}\\s*=\\s*)\\{`).exec(source);
          if (!decl) continue;
          const declaration = balanced(source, decl.index + decl[0].length - 1);
          Object.assign(factory, { members: membersOf(declaration), declaredIn: candidate, declaration });
          break;
        }
      }
      factories.push(factory);
    }
  }
  return factories;
}

/** The layer of a file: its folder under src/, or the file's own name for top-level files. */
const layerOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file.replace(/\.ts$/, ''));

/** Which layers each layer may import (besides itself). Top-level files not listed may import anything. */
const ALLOWED: Record<string, readonly string[]> = {
  domain: [],
  store: ['domain'],
  webhooks: ['domain', 'wire'],
  scenarios: ['domain'],
  // The application services (reset, the clock, run-time scenarios, ...) over the domain's
  // ports; only the composition root (and the `Sandbox` interface it returns) knows them.
  application: ['domain'],
  // The wire format of the records, shared by the API's answers and the event-style webhook bodies.
  wire: ['domain'],
  http: ['domain', 'wire', 'config', 'log'],
  sandbox: ['domain', 'config', 'scenarios', 'application'],
  compose: ['domain', 'application', 'store', 'webhooks', 'scenarios', 'config', 'sandbox', 'log'],
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
  application: /^(hono|@hono\/|better-sqlite3|zod|node:http|node:net|commander)/,
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
  // --- issue 17: each router gets only its keys; the composition root only wires ---

  it('keeps the repositories and the whole sandbox out of src/http/: no Repositories or *Repo of domain/ports.ts, nothing of sandbox.ts, no .stores, no c.get(\'sandbox\')', () => {
    const wrong: string[] = [];
    for (const file of graph.keys()) {
      if (layerOf(file) !== 'http') continue;
      const text = code(file);
      for (const m of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?([^'"]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
        const target = relative(SRC, resolve(dirname(join(SRC, file)), m[2]!)).replace(/\.js$/, '.ts');
        if (target === 'sandbox.ts') wrong.push(`${file} imports from sandbox.ts`);
        if (target === 'domain/ports.ts') {
          const names = m[1]!.replace(/[{}]/g, '').split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean);
          for (const name of names) if (name === 'Repositories' || /Repo$/.test(name)) wrong.push(`${file} imports ${name} from domain/ports.ts`);
        }
      }
      if (/\.stores\b/.test(text)) wrong.push(`${file} reads .stores`);
      if (/\.(?:get|var)\s*(?:\(\s*['"]sandbox['"]\s*\)|\.sandbox\b)/.test(text) || /\.var\.sandbox\b/.test(text)) wrong.push(`${file} reads the sandbox from the context`);
    }
    expect(wrong).toEqual([]);
  });

  it('hands each router only what it uses: no member of a *Routes factory\'s deps it (or its own files) never uses, none typed Sandbox, no sandbox from the context', () => {
    const factories = routerFactories(graph);
    expect(factories.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const f of factories) {
      if (/\bSandbox\b(?!\s*\[)/.test(f.type) || (f.declaration && /:\s*(?:Readonly<\s*)?Sandbox\b(?!\s*\[)/.test(f.declaration))) wrong.push(`${f.name} (${f.file}) is handed the Sandbox`);
      // Its own files: the factory's, the one declaring its deps, and the files beside them they import.
      const own = new Set([f.file, ...(f.declaredIn ? [f.declaredIn] : [])]);
      for (const file of [...own]) for (const dep of relativeImports(file, graph)) if (dirname(dep) === dirname(f.file)) own.add(dep);
      const texts = [...own].map((file) => code(file).replace(f.declaration ?? '\0', ''));
      if (texts.some((t) => /\.(?:get|var)\s*(?:\(\s*['"]sandbox['"]\s*\)|\.sandbox\b)/.test(t))) wrong.push(`${f.name} (${f.file}) takes the whole sandbox from the context`);
      for (const member of f.members ?? []) {
        if (!texts.some((t) => new RegExp(`\\b${member}\\b`).test(t))) wrong.push(`${f.name} (${f.file}) is handed ${member} and never uses it`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps every file of src/ at 300 lines or fewer', () => {
    const long = [...graph.keys()]
      .map((file) => ({ file, lines: readFileSync(join(SRC, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 300)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('keeps compose.ts wiring only: no function but composeSandbox, no block-bodied arrow or method, no control flow, no error building', () => {
    const text = code('compose.ts');
    const wrong: string[] = [];
    for (const m of text.matchAll(/\bfunction\s+(\w+)/g)) if (m[1] !== 'composeSandbox') wrong.push(`function ${m[1]}`);
    for (const m of text.matchAll(/=>\s*\{/g)) wrong.push(`block-bodied arrow at "${text.slice(Math.max(0, m.index - 40), m.index + 3).replace(/\s+/g, ' ')}"`);
    // A method or accessor whose body spans lines (a one-line `get x() { return y; }` is wiring).
    for (const m of text.matchAll(/^\s*(?:async\s+)?(?:get\s+|set\s+)?(\w+)\s*\([^)\n]*\)\s*(?::\s*[^{\n]+)?\{[ \t]*$/gm)) if (m[1] !== 'composeSandbox') wrong.push(`method ${m[1]}`);
    for (const m of text.matchAll(/\b(if|for|while|switch|try|catch|throw)\b\s*[({]?/g)) wrong.push(`control flow: ${m[1]}`);
    for (const m of text.matchAll(/\b(badRequest|SandboxError|jsonPointer|ErrorDetail|notFound|conflict)\b/g)) wrong.push(`error building: ${m[1]}`);
    expect(wrong).toEqual([]);
  });
});
