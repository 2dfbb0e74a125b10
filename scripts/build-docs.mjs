#!/usr/bin/env node
// Renders the guides to HTML for the sandbox to serve (`GET /docs`, `GET /docs/<page>`):
// every docs/*.md and README.md (page `readme`) become dist/docs/<page>.html, with one
// navigation, a search box and the panel's look; dist/docs/index.html lists the pages, each
// with its description (the first sentence of the paragraph under its title). The contributor
// pages (CONTRIBUTING.md, docs/benchmarks.md) stay in the repository and are not served: a
// link to them, or to any other file of the repository (`compose.yaml`, `examples/...`), goes
// to that file in the repository (package.json `repository`, `/blob/main/<path>`). Links
// between pages (`webhooks.md#x`) become `/docs/webhooks#x`. dist/docs/search-index.json holds
// each section of each served page (page, heading, anchor, text) for the client-side search of
// public/docs.js, which also puts a copy button on each code block. A line
// `<!-- include: PATH -->` (PATH from the repository's root) is followed, in the served page,
// by the text of that file as a code block.
// docs/options.md is generated from the options schema (dist/options-doc.js, built by tsc):
// the build writes it first when the schema says otherwise.
//   node scripts/build-docs.mjs            write docs/options.md (when dist/ has the schema), render dist/docs/
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'docs');

/** The order of the navigation; other docs/*.md pages follow by name. */
const ORDER = [
  'readme',
  'api',
  'authentication',
  'webhooks',
  'subscriptions',
  'scenarios',
  'payment-methods',
  'faults',
  'control-api',
  'fixtures',
  'ci',
  'go-live',
  'conformance',
  'agents',
  'security',
  'options',
];

/** Pages for those who work on the sandbox itself: kept in the repository, not served to merchants. */
export const CONTRIBUTOR_PAGES = ['benchmarks', 'contributing'];

/** The repository's web address (package.json `repository`), where links to its files go. */
export const REPOSITORY_URL = (() => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository.url;
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
})();

/** A file or folder of the repository (a path from its root) as a link to it in the repository. */
export function repositoryHref(path, hash) {
  const file = join(root, path);
  const kind = existsSync(file) && statSync(file).isDirectory() ? 'tree' : 'blob';
  return `${REPOSITORY_URL}/${kind}/main/${path}${hash === undefined ? '' : `#${hash}`}`;
}

/** A heading's anchor as the code host makes it: lower case, punctuation dropped, spaces to dashes. */
export function slugify(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every page the sandbox serves: name, source file (from the root) and Markdown text. */
export function docPages() {
  return allPages().filter((p) => !CONTRIBUTOR_PAGES.includes(p.name));
}

/** Every page, the contributor pages included. */
function allPages() {
  const pages = [
    { name: 'readme', file: 'README.md' },
    { name: 'contributing', file: 'CONTRIBUTING.md' },
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => ({ name: f.slice(0, -3).toLowerCase(), file: `docs/${f}` })),
  ].filter((p) => existsSync(join(root, p.file)));
  const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  pages.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  return pages.map((p) => ({ ...p, markdown: readFileSync(join(root, p.file), 'utf8') }));
}

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Where a link of `fromFile` goes from the served docs: a served page (`/docs/<page>#x`), an
 * image of the guides, or the file in the repository.
 */
export function servedHref(href, fromFile, names) {
  if (/^[a-z]+:|^\/\/|^#/i.test(href)) return href;
  const [path, hash] = href.split('#');
  const base = fromFile.startsWith('docs/') ? 'docs/' : '';
  const parts = [];
  for (const part of `${base}${path}`.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  const target = parts.join('/');
  const suffix = hash === undefined ? '' : `#${hash}`;
  if (target.startsWith('docs/images/')) return `/docs/images/${target.slice('docs/images/'.length)}`;
  const page =
    target === 'README.md'
      ? 'readme'
      : target === 'CONTRIBUTING.md'
        ? 'contributing'
        : target.startsWith('docs/') && target.endsWith('.md')
          ? target.slice(5, -3).toLowerCase()
          : undefined;
  if (page !== undefined && names.includes(page)) return `/docs/${page}${suffix}`;
  return repositoryHref(target, hash);
}

/** The Markdown with each include marker followed by its file's text as a fenced block. */
function withIncludes(markdown) {
  return markdown.replace(/^<!-- include: (\S+) -->\n/gm, (line, path) => {
    const file = join(root, path);
    if (!existsSync(file)) {
      process.stderr.write(`build-docs: ${path} is missing; its page shows the link only\n`);
      return line;
    }
    const text = readFileSync(file, 'utf8').replace(/\n$/, '');
    const fence = text.includes('```') ? '~~~~' : '```';
    return `${line}\n${fence}\n${text}\n${fence}\n\n`;
  });
}

function renderer(fromFile, names) {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false }).use(anchor, { slugify, tabIndex: false });
  const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const href = token.attrGet('href') ?? '';
    token.attrSet('href', servedHref(href, fromFile, names));
    return defaultLink(tokens, idx, options, env, self);
  };
  const defaultImage = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = token.attrGet('src') ?? '';
    if (!/^[a-z]+:|^\/\//i.test(src)) token.attrSet('src', servedHref(src, fromFile, names));
    return defaultImage(tokens, idx, options, env, self);
  };
  return md;
}

const titleOf = (markdown, name) => /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '') ?? name;

/** A description longer than this ends at its sentence's first colon or semicolon. */
const DESCRIPTION_CHARS = 160;

/**
 * A page's description, as the docs index shows it: the first sentence of the paragraph right
 * under its title (HTML comments skipped; Markdown, links reduced to their text), up to its
 * first colon or semicolon when longer than `DESCRIPTION_CHARS`; undefined when the title is
 * followed by something else (a table, a list, a heading).
 */
export function descriptionOf(markdown) {
  const after = markdown.replace(/^[\s\S]*?^# .*\n/m, '').replace(/^<!--[\s\S]*?-->\n/gm, '');
  const paragraph = /^\s*\n?((?:[^\n]+\n?)+)/.exec(after)?.[1]?.trim();
  if (paragraph === undefined || /^([|#><-]|\d+\.\s|```|~~~)/.test(paragraph)) return undefined;
  const text = paragraph.replace(/\s*\n\s*/g, ' ').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  const sentence = /^.*?(?<!\b(?:e\.g|i\.e))[.!?](?=\s+[A-Z(`*]|$)/.exec(text)?.[0] ?? text;
  const short = sentence.length > DESCRIPTION_CHARS ? (/^.*?(?=[:;]\s)/.exec(sentence)?.[0] ?? sentence) : sentence;
  return short.replace(/[:;]$/, '').replace(/(?<![.!?])$/, '.');
}

/** The sections of a rendered page for the search: the text under each heading, with its anchor. */
function sectionsOf(tokens) {
  const sections = [];
  let current;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'heading_open') {
      current = {
        heading: tokens[i + 1].content.replace(/`/g, ''),
        anchor: token.attrGet('id') ?? '',
        level: Number(token.tag.slice(1)),
        text: [],
      };
      sections.push(current);
      i += 2;
    } else if (current && (token.type === 'inline' || token.type === 'fence' || token.type === 'code_block')) {
      current.text.push(token.content.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, ''));
    }
  }
  return sections;
}

/** Characters of a section's text kept in the search index (the rest is rarely what is searched for). */
const SECTION_TEXT = 1500;

function layout(title, nav, body) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · payment-sandbox docs</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/theme.css">
<link rel="stylesheet" href="/docs/docs.css">
<script type="module" src="/docs.js"></script>
</head>
<body class="docs">
<nav class="docs-nav" aria-label="Docs"><a href="/">Panel</a> · <a href="/docs">Docs</a>${nav}</nav>
<div class="docs-search" role="search">
<label for="docs-search-input" class="docs-search-label">Search the docs</label>
<input id="docs-search-input" type="search" autocomplete="off" placeholder="Search the docs (e.g. refund webhook)" aria-controls="docs-search-results">
<ol id="docs-search-results" class="docs-search-results" aria-live="polite" hidden></ol>
</div>
<main class="docs-page">
${body}
</main>
</body>
</html>
`;
}

const CSS = `body.docs { margin: 0; font: 15px/1.55 system-ui, sans-serif; background: var(--bg, #fff); color: var(--fg, #1b1f24); }
.docs-nav { padding: .6rem 1.2rem; border-bottom: 1px solid var(--border, #d0d7de); background: var(--surface, #f6f8fa); font-size: 14px; line-height: 1.9; }
.docs-nav a { margin-right: .2rem; }
.docs-nav a[aria-current="page"] { font-weight: 600; }
.docs-search { max-width: 52rem; margin: .8rem auto 0; padding: 0 1.2rem; position: relative; }
.docs-search-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.docs-search input { width: 100%; box-sizing: border-box; padding: .45rem .7rem; font: inherit; border: 1px solid var(--border, #d0d7de); border-radius: 6px; background: var(--bg, #fff); color: inherit; }
.docs-search-results { list-style: none; margin: .3rem 0 0; padding: .3rem 0; border: 1px solid var(--border, #d0d7de); border-radius: 6px; background: var(--bg, #fff); max-height: 60vh; overflow-y: auto; }
.docs-search-results li { padding: .35rem .8rem; }
.docs-search-results li + li { border-top: 1px solid var(--border, #d0d7de); }
.docs-search-results .docs-result-page { color: var(--muted, #59636e); font-size: 13px; }
.docs-search-results .docs-result-snippet { display: block; color: var(--muted, #59636e); font-size: 13px; }
.docs-page { max-width: 52rem; margin: 0 auto; padding: 1rem 1.2rem 4rem; }
.docs-page [id] { scroll-margin-top: .8rem; }
.docs-page pre { overflow-x: auto; padding: .7rem .9rem; border-radius: 6px; background: var(--surface, #f6f8fa); border: 1px solid var(--border, #d0d7de); font-size: 13px; }
.docs-page .code-block { position: relative; }
.docs-page .copy-button { position: absolute; top: .35rem; right: .35rem; padding: .1rem .5rem; font: 12px system-ui, sans-serif; border: 1px solid var(--border, #d0d7de); border-radius: 4px; background: var(--bg, #fff); color: inherit; cursor: pointer; }
.docs-page code { font-size: 90%; }
.docs-page table { border-collapse: collapse; display: block; overflow-x: auto; }
.docs-page th, .docs-page td { border: 1px solid var(--border, #d0d7de); padding: .3rem .6rem; vertical-align: top; }
.docs-page img { max-width: 100%; border: 1px solid var(--border, #d0d7de); }
.docs-index dd { margin: 0 0 .7rem; color: var(--muted, #59636e); }
.docs-index dt { font-weight: 600; }
`;

/** Renders every served page into dist/docs/, with the index and the search index. */
export function buildDocs() {
  const pages = docPages();
  const names = pages.map((p) => p.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'images'), { recursive: true });
  const navFor = (current) =>
    pages
      .map(
        (p) =>
          ` · <a href="/docs/${p.name}"${p.name === current ? ' aria-current="page"' : ''}>${escapeHtml(titleOf(p.markdown, p.name))}</a>`,
      )
      .join('');
  const search = [];
  for (const page of pages) {
    const md = renderer(page.file, names);
    const env = {};
    const tokens = md.parse(withIncludes(page.markdown), env);
    const html = md.renderer.render(tokens, md.options, env);
    const title = titleOf(page.markdown, page.name);
    writeFileSync(join(out, `${page.name}.html`), layout(title, navFor(page.name), html));
    for (const section of sectionsOf(tokens)) {
      search.push({
        page: page.name,
        title,
        heading: section.level === 1 ? '' : section.heading,
        anchor: section.level === 1 ? '' : section.anchor,
        text: section.text.join(' ').replace(/\s+/g, ' ').trim().slice(0, SECTION_TEXT),
      });
    }
  }
  const inline = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const list = pages
    .map((p) => {
      const description = descriptionOf(p.markdown);
      if (description === undefined) throw new Error(`build-docs: ${p.file} has no paragraph under its title to describe it in the index`);
      return `<dt><a href="/docs/${p.name}">${escapeHtml(titleOf(p.markdown, p.name))}</a></dt>\n<dd>${inline.renderInline(description)}</dd>`;
    })
    .join('\n');
  writeFileSync(
    join(out, 'index.html'),
    layout(
      'Docs',
      navFor(''),
      `<h1>payment-sandbox docs</h1>\n<p>The guides of this sandbox's version, served offline.</p>\n<dl class="docs-index">\n${list}\n</dl>`,
    ),
  );
  writeFileSync(join(out, 'search-index.json'), JSON.stringify(search));
  writeFileSync(join(out, 'docs.css'), CSS);
  const images = join(root, 'docs', 'images');
  if (existsSync(images))
    for (const f of readdirSync(images)) if (f.endsWith('.png')) copyFileSync(join(images, f), join(out, 'images', f));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const generator = join(root, 'dist', 'options-doc.js');
  if (existsSync(generator)) {
    const { renderOptionsPage } = await import(pathToFileURL(generator).href);
    const page = renderOptionsPage();
    const file = join(root, 'docs', 'options.md');
    if (!existsSync(file) || readFileSync(file, 'utf8') !== page) {
      writeFileSync(file, page);
      process.stdout.write('build-docs: wrote docs/options.md from the options schema\n');
    }
  }
  buildDocs();
}
