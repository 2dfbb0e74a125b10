#!/usr/bin/env node
// Renders the guides to HTML for the sandbox to serve (`GET /docs`, `GET /docs/<page>`):
// every docs/*.md, README.md (page `readme`) and CONTRIBUTING.md (page `contributing`) become
// dist/docs/<page>.html, with one navigation and the panel's look; dist/docs/index.html lists
// the pages. Links between pages (`webhooks.md#x`) become `/docs/webhooks#x`. A line
// `<!-- include: PATH -->` (PATH from the repository's root) is followed, in the served page,
// by the text of that file as a code block.
// docs/options.md is generated from the options schema (dist/options-doc.js, built by tsc):
// the build writes it first when the schema says otherwise.
//   node scripts/build-docs.mjs            write docs/options.md (when dist/ has the schema), render dist/docs/
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  'benchmarks',
  'contributing',
];

/** A heading's anchor as the code host makes it: lower case, punctuation dropped, spaces to dashes. */
export function slugify(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every page: name, source file (from the root) and Markdown text. */
export function docPages() {
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

/** Where a link of `fromFile` goes in the served docs, or undefined when it leaves them. */
function servedHref(href, fromFile, names) {
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
  return undefined;
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
    const served = servedHref(href, fromFile, names);
    if (served === undefined) {
      // A file of the repository the sandbox does not serve: shown as its path.
      token.attrSet('href', `#`);
      token.attrSet('title', `${href} in the repository`);
    } else token.attrSet('href', served);
    return defaultLink(tokens, idx, options, env, self);
  };
  const defaultImage = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const served = servedHref(token.attrGet('src') ?? '', fromFile, names);
    if (served !== undefined) token.attrSet('src', served);
    return defaultImage(tokens, idx, options, env, self);
  };
  return md;
}

const titleOf = (markdown, name) => /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '') ?? name;

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
</head>
<body class="docs">
<nav class="docs-nav" aria-label="Docs"><a href="/">Panel</a> · <a href="/docs">Docs</a>${nav}</nav>
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
.docs-page { max-width: 52rem; margin: 0 auto; padding: 1rem 1.2rem 4rem; }
.docs-page [id] { scroll-margin-top: .8rem; }
.docs-page pre { overflow-x: auto; padding: .7rem .9rem; border-radius: 6px; background: var(--surface, #f6f8fa); border: 1px solid var(--border, #d0d7de); font-size: 13px; }
.docs-page code { font-size: 90%; }
.docs-page table { border-collapse: collapse; display: block; overflow-x: auto; }
.docs-page th, .docs-page td { border: 1px solid var(--border, #d0d7de); padding: .3rem .6rem; vertical-align: top; }
.docs-page img { max-width: 100%; border: 1px solid var(--border, #d0d7de); }
`;

/** Renders every page into dist/docs/. */
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
  for (const page of pages) {
    const html = renderer(page.file, names).render(withIncludes(page.markdown));
    writeFileSync(join(out, `${page.name}.html`), layout(titleOf(page.markdown, page.name), navFor(page.name), html));
  }
  const list = pages.map((p) => `<li><a href="/docs/${p.name}">${escapeHtml(titleOf(p.markdown, p.name))}</a></li>`).join('\n');
  writeFileSync(
    join(out, 'index.html'),
    layout(
      'Docs',
      navFor(''),
      `<h1>payment-sandbox docs</h1>\n<p>The guides of this sandbox's version, served offline.</p>\n<ul>\n${list}\n</ul>`,
    ),
  );
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
