/**
 * How the guides are served (scripts/build-docs.mjs, public/docs.js): each page's description
 * in the index is the first sentence of the paragraph under its title; the contributor pages
 * are not served; a link to a file of the repository goes to that file in the repository;
 * the search finds a section by the words of its heading, page and text, every word of the
 * query required, and leads to the page at that heading.
 */
import { describe, expect, it } from 'vitest';

interface Page {
  name: string;
  file: string;
  markdown: string;
}
interface BuildDocs {
  docPages(): Page[];
  descriptionOf(markdown: string): string | undefined;
  servedHref(href: string, fromFile: string, names: string[]): string;
  CONTRIBUTOR_PAGES: string[];
  REPOSITORY_URL: string;
}
interface Section {
  page: string;
  title: string;
  heading: string;
  anchor: string;
  text: string;
}
interface DocsScript {
  search(index: Section[], query: string, limit?: number): { section: Section; href: string; snippet: string }[];
}

const build = (): Promise<BuildDocs> => import(new URL('../../../scripts/build-docs.mjs', import.meta.url).href) as Promise<BuildDocs>;
const script = (): Promise<DocsScript> => import(new URL('../../../public/docs.js', import.meta.url).href) as Promise<DocsScript>;

describe('the docs index', () => {
  it('describes a page by the first sentence of the paragraph under its title, links as their text, HTML comments skipped', async () => {
    const { descriptionOf } = await build();
    expect(descriptionOf('# Title\n\nFirst sentence with a [link](x.md). Second one.\n\n## More\n')).toBe('First sentence with a link.');
    expect(descriptionOf('# Options\n\n<!-- generated -->\n\nEvery option is a flag, e.g. `--port`. More.\n')).toBe(
      'Every option is a flag, e.g. `--port`.',
    );
    const long = `A sandbox for ${'very '.repeat(30)}long things: the rest, which is long too.`;
    expect(descriptionOf(`# T\n\n${long}\n`)).toBe(`A sandbox for ${'very '.repeat(30)}long things.`);
    expect(descriptionOf('# Title\n\n| a | b |\n|---|---|\n')).toBeUndefined();
    expect(descriptionOf('# Title\n\n- a list\n')).toBeUndefined();
  });

  it('has a description for every served page (the build refuses a page without one)', async () => {
    const { docPages, descriptionOf } = await build();
    const pages = docPages();
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect(descriptionOf(page.markdown), page.file).toMatch(/^.{20,200}$/);
  });
});

describe("the merchant's menu", () => {
  it('serves the guides but not the contributor pages (CONTRIBUTING.md, docs/benchmarks.md)', async () => {
    const { docPages, CONTRIBUTOR_PAGES } = await build();
    const names = docPages().map((p) => p.name);
    expect(CONTRIBUTOR_PAGES).toEqual(['benchmarks', 'contributing']);
    for (const name of CONTRIBUTOR_PAGES) expect(names).not.toContain(name);
    expect(names).toEqual(expect.arrayContaining(['readme', 'api', 'webhooks', 'ci', 'go-live']));
  });

  it('links a file of the repository, a contributor page included, to the repository; a served page to /docs', async () => {
    const { servedHref, REPOSITORY_URL } = await build();
    expect(REPOSITORY_URL).toBe('https://github.com/payment-sandbox/payment-sandbox');
    const names = ['readme', 'ci', 'webhooks'];
    expect(servedHref('../compose.yaml', 'docs/ci.md', names)).toBe(`${REPOSITORY_URL}/blob/main/compose.yaml`);
    expect(servedHref('../examples/github-actions.yml', 'docs/ci.md', names)).toBe(
      `${REPOSITORY_URL}/blob/main/examples/github-actions.yml`,
    );
    expect(servedHref('../fixtures/', 'docs/fixtures.md', names)).toBe(`${REPOSITORY_URL}/tree/main/fixtures`);
    expect(servedHref('CONTRIBUTING.md', 'README.md', names)).toBe(`${REPOSITORY_URL}/blob/main/CONTRIBUTING.md`);
    expect(servedHref('docs/benchmarks.md#the-create-path', 'README.md', names)).toBe(
      `${REPOSITORY_URL}/blob/main/docs/benchmarks.md#the-create-path`,
    );
    expect(servedHref('webhooks.md#retries', 'docs/ci.md', names)).toBe('/docs/webhooks#retries');
    expect(servedHref('#here', 'docs/ci.md', names)).toBe('#here');
  });
});

describe('the docs search', () => {
  const index: Section[] = [
    { page: 'api', title: 'The API', heading: '', anchor: '', text: 'Routes, errors, idempotency and refunds.' },
    { page: 'api', title: 'The API', heading: 'Refunds', anchor: 'refunds', text: 'A refund webhook names the payment.' },
    {
      page: 'webhooks',
      title: 'Webhooks',
      heading: 'Retries',
      anchor: 'retries',
      text: 'A failed delivery is retried, refund webhooks too.',
    },
    { page: 'ci', title: 'CI and containers', heading: 'Compose', anchor: 'compose', text: 'docker compose up' },
  ];

  it('finds the sections holding every word, the heading first, and links the page at its anchor', async () => {
    const { search } = await script();
    const found = search(index, 'refund webhook');
    expect(found.map((r) => r.href)).toEqual(['/docs/api#refunds', '/docs/webhooks#retries']);
    expect(found[0]!.snippet).toContain('refund webhook');
    expect(search(index, 'Compose').map((r) => r.href)).toEqual(['/docs/ci#compose']);
    expect(search(index, 'idempot').map((r) => r.href)).toEqual(['/docs/api']);
  });

  it('finds nothing for an empty query or a word no section holds', async () => {
    const { search } = await script();
    expect(search(index, '   ')).toEqual([]);
    expect(search(index, 'refund zebra')).toEqual([]);
  });
});
