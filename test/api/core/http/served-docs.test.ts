/**
 * The guides as the sandbox serves them (built by `npm run build` into dist/docs): the index
 * gives each page a one-line description; each page carries the search box and its script,
 * allowed by the page's Content-Security-Policy; the search index covers every served page's
 * sections; the contributor pages are not served; no link of a served page is a dead `#`, and
 * the files of the repository are linked to the repository.
 */
import { describe, expect, it } from 'vitest';
import { testApp } from '../../../support/app.js';

interface Section {
  page: string;
  title: string;
  heading: string;
  anchor: string;
  text: string;
}

const { app } = testApp();
const get = (path: string) => app.request(path);
const REPOSITORY = 'https://github.com/payment-sandbox/payment-sandbox/blob/main/';

describe('the served docs', () => {
  it('index: every page with a one-line description, no contributor page', async () => {
    const html = await (await get('/docs')).text();
    const entries = [...html.matchAll(/<dt><a href="\/docs\/([a-z0-9-]+)">[^<]+<\/a><\/dt>\n<dd>(.+)<\/dd>/g)].map((m) => [m[1]!, m[2]!]);
    expect(entries.map(([page]) => page)).toEqual(expect.arrayContaining(['readme', 'api', 'webhooks', 'ci', 'options']));
    for (const [page, description] of entries) expect(description, page).toMatch(/^.{20,260}$/);
    expect(entries.find(([page]) => page === 'api')![1]).toContain('The <code>/v4</code> API as the sandbox answers it');
    expect(html).not.toMatch(/href="\/docs\/(benchmarks|contributing)"/);
    for (const page of ['benchmarks', 'contributing']) expect((await get(`/docs/${page}`)).status, page).toBe(404);
  });

  it('each page has the search box and its script, which its Content-Security-Policy allows', async () => {
    for (const path of ['/docs', '/docs/api', '/docs/ci']) {
      const res = await get(path);
      const html = await res.text();
      expect(html, path).toContain('<script type="module" src="/docs.js"></script>');
      expect(html, path).toContain('<input id="docs-search-input" type="search"');
      expect(res.headers.get('content-security-policy'), path).toMatch(/script-src 'self'/);
    }
    const script = await get('/docs.js');
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('export function search(');
  });

  it('search index: the sections of every served page, each with its page, title, heading and anchor', async () => {
    const res = await get('/docs/search-index.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const index = (await res.json()) as Section[];
    const index_html = await (await get('/docs')).text();
    const pages = [...index_html.matchAll(/<dt><a href="\/docs\/([a-z0-9-]+)"/g)].map((m) => m[1]!);
    expect(new Set(index.map((s) => s.page))).toEqual(new Set(pages));
    const refunds = index.find((s) => s.page === 'api' && s.heading === 'Refunds and their webhook');
    expect(refunds).toMatchObject({ title: 'The API', anchor: 'refunds-and-their-webhook' });
    expect(refunds!.text).toContain('original_transaction_id');
    const api = await (await get('/docs/api')).text();
    for (const section of index.filter((s) => s.page === 'api' && s.anchor))
      expect(api, section.anchor).toContain(`id="${section.anchor}"`);
  });

  it('links the repository files the guides name to the repository; no link is a dead #', async () => {
    const ci = await (await get('/docs/ci')).text();
    expect(ci).toContain(`href="${REPOSITORY}compose.yaml"`);
    expect(ci).toContain(`href="${REPOSITORY}examples/github-actions.yml"`);
    const readme = await (await get('/docs/readme')).text();
    expect(readme).toContain(`href="${REPOSITORY}CONTRIBUTING.md"`);
    expect(readme).toContain(`href="${REPOSITORY}docs/benchmarks.md"`);
    for (const page of ['readme', 'ci', 'go-live', 'webhooks', 'fixtures', 'scenarios']) {
      const html = await (await get(`/docs/${page}`)).text();
      expect(html, page).not.toContain('href="#"');
    }
  });
});
