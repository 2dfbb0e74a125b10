/**
 * The docs stay true: every link between README.md, CONTRIBUTING.md and docs/*.md reaches a
 * file and, where it names one, an anchor of that file; the options page is what the options
 * schema generates; every go-live finding code has its entry; the docs speak of the product
 * only (no backlog numbers, commit hashes or paths outside the repository); and every curl
 * sends an Idempotency-Key on a create.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../../../src/features/go-live/go-live.js';
import { renderOptionsPage } from '../../../src/options-doc.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** A heading's anchor as the code host (and the served pages) make it. */
const slug = (heading: string): string =>
  heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The Markdown without its fenced code blocks (links and headings inside them do not count). */
const prose = (markdown: string): string => markdown.replace(/^(```|~~~~)[^\n]*\n[\s\S]*?^\1$/gm, '');

/** Every anchor of a Markdown file: its headings' slugs and its explicit ids. */
function anchorsOf(path: string): Set<string> {
  const text = prose(read(path));
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/\bid="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

/** The relative links of a Markdown file: `[text](target)`, images included. */
function linksOf(path: string): string[] {
  return [...prose(read(path)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z]+:/i.test(href));
}

describe('the docs: links and anchors', () => {
  it('README.md is at most 250 lines and links every guide', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const page of DOCS.filter((p) => p.startsWith('docs/'))) expect(readme, page).toContain(`](${page})`);
    expect(readme).toContain('](docs/conformance.md)');
  });

  it('every relative link reaches a file, and its anchor exists in that file', () => {
    const broken: string[] = [];
    for (const path of DOCS) {
      for (const href of linksOf(path)) {
        const [file, anchor] = href.split('#');
        const target = file === '' ? path : normalize(join(dirname(path), file!));
        if (target === 'docs/conformance.md' || target.startsWith('examples/webhook-handlers/')) continue; // each comes with its own feature
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${path}: ${href} (no file)`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${path}: ${href} (no anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names only files and folders of the repository that exist (in prose, links and code blocks alike)', () => {
    // A path from the repository's root: in prose or a link any top folder of the repository; in
    // a code block only the folders a merchant's own project would not have (its src/ and test/
    // are the merchant's files there).
    const top = 'src|test|scripts|public|examples|fixtures|scenarios|docs|bin|docker|\\.ci';
    const inCode = 'scripts|public|examples|fixtures|scenarios|docs|bin|docker|\\.ci';
    const pathIn = (folders: string) =>
      new RegExp(
        `(?<![\\w/.$@:~-])(?:\\./)?((?:${folders})/[\\w./-]*[\\w/]|(?:compose\\.yaml|Dockerfile|package\\.json|ARCHITECTURE\\.md|CONTRIBUTING\\.md)(?![\\w.-]))`,
        'g',
      );
    const missing: string[] = [];
    for (const path of DOCS) {
      const text = read(path);
      const code = [...text.matchAll(/^(```|~~~~)[^\n]*\n([\s\S]*?)^\1$/gm)].map((m) => m[2]!).join('\n');
      const named = [...[...prose(text).matchAll(pathIn(top))], ...code.matchAll(pathIn(inCode))].map((m) => m[1]!);
      for (const name of new Set(named)) if (!existsSync(join(ROOT, name))) missing.push(`${path}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it("docs/api.md's refund webhook names the refunded payment by its external_identifier, as the webhook's schema does", () => {
    const text = read('docs/api.md');
    const section = text.slice(text.indexOf('Its webhook names the refund'));
    const example = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(section)![1]!) as Record<string, unknown>;
    expect(example.original_transaction_id).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(section.slice(0, section.indexOf('```'))).toMatch(
      /`original_transaction_id`: the payment's `merchant_transaction_id`, that is its\s+`external_identifier`/,
    );
  });

  it('docs/options.md is what the options schema generates (npm run build writes it)', () => {
    expect(read('docs/options.md')).toBe(renderOptionsPage());
  });

  it('docs/go-live.md has an entry whose id is each finding code, the newer codes included', () => {
    const anchors = anchorsOf('docs/go-live.md');
    for (const code of [...FINDING_CODES, 'webhook_unreachable', 'ignored_webhook_field']) expect(anchors.has(code), code).toBe(true);
  });
});

describe('the docs: words', () => {
  it('name no backlog number, commit hash, contract or path outside the repository', () => {
    for (const path of DOCS) {
      const text = read(path);
      expect(text, path).not.toMatch(/\bissues? #?\d+|\bcontract:|\.\.\/shared|\bround of work|\bbacklog\b/i);
      const hashes = [...text.matchAll(/(?<![\w./-])[0-9a-f]{7,12}(?![\w-])/g)]
        .map((m) => m[0])
        .filter((h) => /\d/.test(h) && /[a-f]/.test(h));
      expect(hashes, path).toEqual([]);
    }
  });

  it('every curl that creates a transaction, refund or subscription sends an Idempotency-Key', () => {
    const missing: string[] = [];
    for (const path of DOCS) {
      for (const m of read(path).matchAll(/curl [^\n]*(?:\\\n[^\n]*)*/g)) {
        const command = m[0];
        const create =
          /\/v4\/(transactions|subscriptions)(\/[^/\s"']+\/refunds)?["'\s]/.test(command) && /(^|\s)(-d|--data\S*|-X POST)\s/.test(command);
        if (create && !command.includes('Idempotency-Key')) missing.push(`${path}: ${command.slice(0, 120)}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("CONTRIBUTING.md's map of the code", () => {
  const text = read('CONTRIBUTING.md');
  const section = text.slice(text.indexOf('## The code and the tests'));
  const block = /^```\n([\s\S]*?)^```$/m.exec(section)![1]!;

  /** The paths the map names: each line's first column; a line indented by two is inside the last top-level folder. */
  function mapped(): string[] {
    const paths: string[] = [];
    let parent = '';
    for (const line of block.split('\n').filter(Boolean)) {
      if (/^ {3}/.test(line)) continue; // the text of the entry above, continued
      const indented = /^ {2}\S/.test(line);
      const column = line.trim().split(/\s{2,}/)[0]!;
      const [first, ...rest] = column.split(' ');
      const base = indented ? parent : dirname(first!.replace(/\/$/, '')).replace(/^\.$/, '');
      const own = indented ? [first!, ...rest].map((p) => join(base, p)) : [first!, ...rest.map((p) => join(base, p))];
      if (!indented && first!.endsWith('/')) parent = first!;
      paths.push(...own.map((p) => p.replace(/\/<name>\/?$/, '').replace(/\/$/, '')));
    }
    return paths;
  }

  it('names only files and folders that exist', () => {
    const paths = mapped();
    expect(paths).toContain('src/core');
    expect(paths).toContain('src/core/webhooks');
    expect(paths).toContain('test/image');
    for (const path of paths) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it('lists every feature folder, and every source path named in its prose exists', () => {
    const features = readdirSync(join(ROOT, 'src/features'));
    const line = /^src\/features\/<name>\/[\s\S]*?(?=^\S)/m.exec(block)?.[0] ?? '';
    for (const feature of features) expect(line, feature).toMatch(new RegExp(`\\b${feature}\\b`));
    for (const m of prose(section).matchAll(/`((?:src|test|scripts|public)\/[\w./-]+|eslint\.config\.js)`/g)) {
      expect(existsSync(join(ROOT, m[1]!)), m[1]).toBe(true);
    }
  });
});

describe('ARCHITECTURE.md', () => {
  /** Every file below the folders a reader opens, by its path from the repository's root. */
  const files = ['src', 'public', 'test', 'scripts'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`),
  );

  it('names only files the repository holds (a path from the root or from src/, or a file name of src/, public/, test/ or scripts/)', () => {
    const named = [...read('ARCHITECTURE.md').matchAll(/`([\w./-]+\.(?:ts|js|mjs))`/g)].map((m) => m[1]!);
    expect(named).toContain('features/transactions/transaction-format.ts');
    const held = (name: string): boolean =>
      existsSync(join(ROOT, name)) ||
      existsSync(join(ROOT, 'src', name)) ||
      (!name.includes('/') && files.some((f) => f.endsWith(`/${name}`)));
    const missing = named.filter((name) => !held(name));
    expect(missing).toEqual([]);
  });
});
