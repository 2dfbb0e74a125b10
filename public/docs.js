/**
 * The served guides' script (every /docs page loads it): the search box, over the sections of
 * the pages this sandbox serves (`/docs/search-index.json`, written by `npm run build`; no
 * other service is asked), and a Copy button on each code block. `search` is pure, so a test
 * can run it without a browser.
 */

/** One section of a served page, as the build indexes it. @typedef {{ page: string, title: string, heading: string, anchor: string, text: string }} Section */
/** A search result: the section, where it leads, and a snippet of its text. @typedef {{ section: Section, href: string, snippet: string, score: number }} Result */

/** The words of a query or a text, lower case. @param {string} text */
const words = (text) => text.toLowerCase().match(/[\p{L}\p{N}_.-]+/gu) ?? [];

/**
 * The sections that hold every word of `query` (a word matches where a word of the section
 * starts with it), best first: a word in the heading counts most, then in the page's title,
 * then in the text.
 * @param {readonly Section[]} index
 * @param {string} query
 * @param {number} [limit]
 * @returns {Result[]}
 */
export function search(index, query, limit = 10) {
  const terms = [...new Set(words(query))];
  if (terms.length === 0) return [];
  /** @type {Result[]} */
  const results = [];
  for (const section of index) {
    const heading = words(section.heading);
    const title = words(section.title);
    const text = words(section.text);
    let score = 0;
    let all = true;
    for (const term of terms) {
      const starts = (/** @type {string[]} */ list) => list.some((w) => w.startsWith(term));
      const inHeading = starts(heading);
      const inTitle = starts(title);
      const inText = starts(text);
      if (!inHeading && !inTitle && !inText) {
        all = false;
        break;
      }
      score += (inHeading ? 10 : 0) + (inTitle ? 4 : 0) + (inText ? 1 + Math.min(text.filter((w) => w.startsWith(term)).length, 5) / 5 : 0);
    }
    if (!all) continue;
    const href = `/docs/${section.page}${section.anchor ? `#${section.anchor}` : ''}`;
    results.push({ section, href, snippet: snippet(section.text, terms), score });
  }
  return results.sort((a, b) => b.score - a.score).slice(0, limit);
}

/** About 140 characters of `text` around the first word that matches a term. @param {string} text @param {string[]} terms */
function snippet(text, terms) {
  const lower = text.toLowerCase();
  const at = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), lower.length);
  const start = Math.max(0, at - 40);
  const piece = text.slice(start, start + 140);
  return `${start > 0 ? '…' : ''}${piece}${start + 140 < text.length ? '…' : ''}`;
}

/** The search box: loads the index once, on first use, and lists the results as the reader types. */
function searchBox() {
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById('docs-search-input'));
  const list = document.getElementById('docs-search-results');
  if (!input || !list) return;
  /** @type {Promise<Section[]> | undefined} */
  let loading;
  const index = () =>
    (loading ??= fetch('/docs/search-index.json').then((res) => (res.ok ? /** @type {Promise<Section[]>} */ (res.json()) : [])));
  const show = async () => {
    const query = input.value;
    const found = search(await index(), query);
    if (input.value !== query) return; // a later keystroke shows its own results
    list.replaceChildren(
      ...(query.trim() === ''
        ? []
        : found.length === 0
          ? [Object.assign(document.createElement('li'), { textContent: `Nothing found for “${query.trim()}”.` })]
          : found.map((r) => {
              const li = document.createElement('li');
              const link = Object.assign(document.createElement('a'), { href: r.href, textContent: r.section.heading || r.section.title });
              const page = Object.assign(document.createElement('span'), {
                className: 'docs-result-page',
                textContent: r.section.heading ? ` · ${r.section.title}` : '',
              });
              const text = Object.assign(document.createElement('span'), { className: 'docs-result-snippet', textContent: r.snippet });
              li.append(link, page, text);
              return li;
            })),
    );
    list.hidden = query.trim() === '';
  };
  input.addEventListener('input', () => void show());
  input.addEventListener('focus', () => void index());
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      input.value = '';
      void show();
    }
    if (e.key === 'Enter') {
      const first = list.querySelector('a');
      if (first) location.href = first.href;
    }
  });
}

/** Copies `text`: the Clipboard API where the page may use it, else a selection and the copy command. @param {string} text */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = Object.assign(document.createElement('textarea'), { value: text });
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/** A Copy button on each code block of the page. */
function copyButtons() {
  for (const pre of document.querySelectorAll('.docs-page pre')) {
    const wrapper = Object.assign(document.createElement('div'), { className: 'code-block' });
    pre.replaceWith(wrapper);
    const button = Object.assign(document.createElement('button'), { type: 'button', className: 'copy-button', textContent: 'Copy' });
    button.setAttribute('aria-label', 'Copy this code');
    button.addEventListener('click', async () => {
      button.textContent = (await copy(pre.textContent ?? '')) ? 'Copied' : 'Copy failed';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
    wrapper.append(pre, button);
  }
}

if (typeof document !== 'undefined' && document.body?.classList.contains('docs')) {
  searchBox();
  copyButtons();
}
