/**
 * DOM building for the panel. `h()` makes elements whose string children become text nodes,
 * so a merchant's string is always shown as text and never parsed as HTML (nothing in the
 * panel uses innerHTML). `reconcile()` updates a keyed list in place and keeps the nodes of
 * unchanged items, so focus, text selection and open details survive live updates. Also the
 * shared widgets: copy buttons and the JSON view.
 */

const SAFE_HREF = /^(https?:\/\/|\/|#)/i;

/**
 * Creates an element. Props: `class`, `text`, `dataset`, `on<event>` listeners, and any
 * attribute (true = present, false/null/undefined = absent). `href` accepts http(s),
 * same-origin paths and fragments only. Children: nodes, strings (text), arrays, or nothing.
 * @param {string} tag
 * @param {Record<string, unknown> | null} [props]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = String(value);
    else if (key === 'text') el.textContent = String(value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function')
      el.addEventListener(key.slice(2).toLowerCase(), /** @type {EventListener} */ (value));
    else if (key === 'href' && !SAFE_HREF.test(String(value))) continue;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * A child of `h()`: a node, a string (text), nothing, or a list of children.
 * @typedef {Node | string | number | null | undefined | false | ChildList} Child
 */
/** @typedef {ReadonlyArray<Child>} ChildList */

/**
 * Appends children (nodes, strings as text nodes, nested arrays; null/false skipped).
 * @template {Node & ParentNode} P
 * @param {P} parent
 * @param {readonly Child[]} children
 * @returns {P}
 */
export function append(parent, children) {
  for (const child of /** @type {Array<Exclude<Child, ChildList>>} */ (/** @type {unknown[]} */ (children).flat(Infinity))) {
    if (child === null || child === undefined || child === false || child === '') continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * Replaces all children of `parent`.
 * @template {Element} P
 * @param {P} parent
 * @param {...Child} children
 */
export function setChildren(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** @type {WeakMap<Element, Map<string, { node: HTMLElement, sig: string }>>} */
const keyedState = new WeakMap();

/**
 * Makes the keyed children of `container` (after `options.after`, if given) the nodes of
 * `items`, in order. An item's node is reused while `signature(item)` is unchanged; nodes
 * are only moved when out of place. Focus inside a replaced node moves to the element with
 * the same `data-focus` in its new node (or the item's first enabled control).
 * @template T
 * @param {HTMLElement} container
 * @param {readonly T[]} items
 * @param {{ key(item: T): string, signature(item: T): string, render(item: T): HTMLElement, after?: Node | null }} options
 */
export function reconcile(container, items, { key, signature, render, after = null }) {
  const previous = keyedState.get(container) ?? new Map();
  const active = document.activeElement;
  const focusKey = active instanceof HTMLElement && container.contains(active) ? active.dataset.focus : undefined;
  /** @type {[number | null, number | null] | null} */
  const selection = active instanceof HTMLInputElement ? [active.selectionStart, active.selectionEnd] : null;

  /** @type {Map<string, { node: HTMLElement, sig: string }>} */
  const next = new Map();
  const nodes = items.map((item) => {
    const k = key(item);
    const sig = signature(item);
    const old = previous.get(k);
    const node = old && old.sig === sig ? old.node : render(item);
    next.set(k, { node, sig });
    return node;
  });
  for (const [k, { node }] of previous) {
    if (next.get(k)?.node !== node) node.remove();
  }
  /** @type {ChildNode | null} */
  let cursor = after ? after.nextSibling : container.firstChild;
  for (const node of nodes) {
    if (cursor && node === cursor) cursor = cursor.nextSibling;
    else container.insertBefore(node, cursor);
  }
  keyedState.set(container, next);

  if (focusKey && !container.contains(document.activeElement)) restoreFocus(container, focusKey, selection);
}

/**
 * @param {HTMLElement} container
 * @param {string} focusKey
 * @param {[number | null, number | null] | null} selection
 */
function restoreFocus(container, focusKey, selection) {
  const target = container.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
  if (!target) return;
  if (!(target instanceof HTMLElement)) return;
  if (!target.matches(':disabled')) {
    target.focus();
    if (selection && target instanceof HTMLInputElement) target.setSelectionRange(selection[0], selection[1]);
    return;
  }
  const fallback = target.closest('[data-item]')?.querySelector('button:not(:disabled), a[href], input:not(:disabled)');
  if (fallback instanceof HTMLElement) fallback.focus();
}

/** Copies text; falls back to a hidden textarea where the Clipboard API is unavailable (plain http on a LAN address). @param {string} text */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.className = 'visually-hidden';
    area.setAttribute('aria-hidden', 'true');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/**
 * A "Copy" button. `what` names it for assistive technology ("Copy API key").
 * @param {() => string} getText
 * @param {string} what
 * @param {{ label?: string, focus?: string }} [options]
 */
export function copyButton(getText, what, { label = 'Copy', focus } = {}) {
  const button = h(
    'button',
    {
      type: 'button',
      class: 'btn btn-sm btn-ghost copy-btn',
      'aria-label': `Copy ${what}`,
      title: `Copy ${what}`,
      dataset: focus ? { focus } : undefined,
    },
    label,
  );
  /** @type {number | undefined} */
  let timer;
  button.addEventListener('click', async () => {
    await copyText(getText());
    button.textContent = 'Copied';
    button.classList.add('copied');
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      button.textContent = label;
      button.classList.remove('copied');
    }, 1400);
  });
  return button;
}

const JSON_TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * A <pre> of pretty-printed JSON with light syntax colouring (all text nodes).
 * @param {unknown} value a value, or JSON text already formatted
 * @param {{ label?: string }} [options]
 */
export function jsonView(value, { label } = {}) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const pre = h('pre', { class: 'code json', tabindex: '0', 'aria-label': label });
  let last = 0;
  for (const match of text.matchAll(JSON_TOKEN)) {
    if (match.index > last) pre.append(text.slice(last, match.index));
    const [whole, string, colon, literal, number] = match;
    if (string !== undefined) {
      pre.append(h('span', { class: colon ? 'j-key' : 'j-str' }, string));
      if (colon) pre.append(colon);
    } else if (literal !== undefined) pre.append(h('span', { class: 'j-lit' }, literal));
    else if (number !== undefined) pre.append(h('span', { class: 'j-num' }, number));
    else pre.append(whole);
    last = match.index + whole.length;
  }
  if (last < text.length) pre.append(text.slice(last));
  return pre;
}

/** A body as sent or received: pretty JSON when it parses, else the raw text. @param {string | null} raw @param {string} label */
export function bodyView(raw, label) {
  if (raw === null || raw === '') return h('p', { class: 'muted small' }, '(empty body)');
  try {
    return jsonView(JSON.stringify(JSON.parse(raw), null, 2), { label });
  } catch {
    return h('pre', { class: 'code', tabindex: '0', 'aria-label': label }, raw);
  }
}

/** A status badge. @param {string} text @param {Tone} tone */
export function badge(text, tone) {
  return h('span', { class: `badge badge-${tone}` }, text);
}

/** @typedef {'ok' | 'warn' | 'danger' | 'info' | 'neutral'} Tone */

/** Shell-quotes a string in single quotes. @param {string} text */
export function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
