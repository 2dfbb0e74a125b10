/**
 * Pieces every list view shares: the list view itself (table shell, keyed items, empty,
 * loading, error and "Load older" states), the item parts (one <tbody> per item, so an
 * item's row, its inline forms and its expanded details move together; the expand toggle,
 * status and action cells), the details parts (facts, related lists, the JSON record),
 * empty states with a ready command, and the status tones.
 */
import { badge, copyButton, h, jsonView, reconcile, setChildren } from '../dom.js';
import { fullTime, shortTime } from '../format.js';

/** @import { Child, Tone } from '../dom.js' */
/** @import { PanelContext } from '../actions.js' */
/** @import { List, ListItems, ListName, View } from '../types.js' */
/** @typedef {{ title: string, className?: string, hidden?: boolean }} Column */

/** Badge tone of each status and state the API returns. @type {Record<string, Tone>} */
export const TONES = {
  PENDING: 'warn',
  SUCCEEDED: 'ok',
  FAILED: 'danger',
  active: 'ok',
  past_due: 'warn',
  failed: 'danger',
  cancelled: 'neutral',
  delivered: 'ok',
  retrying: 'warn',
  queued: 'info',
};

/**
 * A list table with a header row, an empty state and a "Load older" button.
 * @param {{ label: string, className: string, columns: readonly Column[], onMore: () => void }} spec
 */
export function listShell({ label, className, columns, onMore }) {
  const head = h(
    'thead',
    null,
    h(
      'tr',
      null,
      columns.map((col) =>
        h('th', { scope: 'col', class: col.className }, col.hidden ? h('span', { class: 'visually-hidden' }, col.title) : col.title),
      ),
    ),
  );
  const table = h('table', { class: `list ${className}`, 'aria-label': label }, head);
  const empty = h('div', { class: 'empty', hidden: true });
  const loading = h(
    'p',
    { class: 'list-loading', role: 'status' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    `Loading ${label.toLowerCase()}…`,
  );
  const note = h('p', { class: 'list-note', hidden: true, role: 'status' });
  const more = h('button', { type: 'button', class: 'btn more-btn', hidden: true, onclick: onMore }, 'Load older');
  const root = h('div', { class: 'card list-card' }, h('div', { class: 'table-scroll' }, table), loading, empty, note, more);
  return { root, table, head, empty, loading, note, more };
}

/** @type {WeakMap<HTMLElement, string | null>} */
const shownEmpty = new WeakMap();

/**
 * Shows the items or the empty state, and the "Load older" button when there is more.
 * @param {{ table: HTMLElement, empty: HTMLElement, loading: HTMLElement, more: HTMLElement, note: HTMLElement }} shell
 * @param {{ count: number, hasMore: boolean, loading: boolean, error: string | null, emptyContent: () => HTMLElement }} status
 */
export function showListState(shell, { count, hasMore, loading, error, emptyContent }) {
  shell.table.hidden = count === 0;
  shell.empty.hidden = count > 0 || loading;
  // Until the first page arrives: a loading line, not an empty table.
  shell.loading.hidden = count > 0 || !loading || Boolean(error);
  if (count === 0 && !loading) {
    // Rebuilt only when its text changes, so a selection in the command survives live updates.
    const content = emptyContent();
    if (content.textContent !== shownEmpty.get(shell.empty)) {
      setChildren(shell.empty, content);
      shownEmpty.set(shell.empty, content.textContent);
    }
  }
  shell.more.hidden = !hasMore;
  shell.note.hidden = !error;
  shell.note.textContent = error ? `Could not load: ${error}` : '';
  shell.note.className = error ? 'list-note error-text' : 'list-note';
}

/**
 * A list view of `ctx.state.lists[list]`: a `listShell` whose items are rendered by key and
 * kept while their signature is unchanged, with its empty, loading, error and "Load older"
 * states. `emptyContent()` builds the empty state.
 * @template {ListName} K
 * @param {PanelContext} ctx
 * @param {{ list: K, label: string, className: string, columns: readonly Column[], key(item: ListItems[K]): string, signature(item: ListItems[K]): string, render(item: ListItems[K]): HTMLElement, emptyContent(): HTMLElement }} spec
 * @returns {View}
 */
export function listView(ctx, { list: name, label, className, columns, key, signature, render, emptyContent }) {
  const shell = listShell({ label, className, columns, onMore: () => ctx.loadMore(name) });
  return {
    root: shell.root,
    update() {
      const list = /** @type {List<ListItems[K]>} */ (ctx.state.lists[name]);
      reconcile(shell.table, list.items, { key, signature, render, after: shell.head });
      showListState(shell, {
        count: list.items.length,
        hasMore: Boolean(list.nextCursor),
        loading: !list.loaded,
        error: list.error,
        emptyContent,
      });
    },
  };
}

/** The first column of an expandable list: its Details toggle. */
export const TOGGLE_COLUMN = { title: 'Details', className: 'col-toggle', hidden: true };
/** The last column of a list with row actions. */
export const ACTIONS_COLUMN = { title: 'Actions', className: 'col-actions', hidden: true };

/** An item's <tbody>: its rows (null skipped). @param {string} id @param {...HTMLElement | null} rows */
export function itemBody(id, ...rows) {
  return h('tbody', { class: 'item', dataset: { item: id } }, rows);
}

/**
 * A row under an item's main row that spans every column (an inline form, notes).
 * @param {string} className
 * @param {readonly Column[]} columns
 * @param {Child} content
 * @param {string} [id]
 */
export function spanRow(className, columns, content, id) {
  return h('tr', { class: className }, h('td', { colspan: String(columns.length), id }, content));
}

/** The id of the details row of item `id` of `kind` ('tx', 'sub', ...), which its toggle controls. */
/** @param {string} kind @param {string | number} id */
const detailIdOf = (kind, id) => `${kind}-detail-${id}`;

/**
 * The expanded details of an item, or null while it is collapsed; `details()` builds them.
 * @param {PanelContext} ctx
 * @param {string} kind
 * @param {string | number} id
 * @param {readonly Column[]} columns
 * @param {() => Child} details
 */
export function detailRow(ctx, kind, id, columns, details) {
  return ctx.isExpanded(kind, id) ? spanRow('detail-row', columns, details(), detailIdOf(kind, id)) : null;
}

/**
 * The cell with an item's Details toggle; `describedBy` names the cell that identifies the item.
 * @param {PanelContext} ctx
 * @param {string} kind
 * @param {string | number} id
 * @param {string} [describedBy]
 */
export function toggleCell(ctx, kind, id, describedBy) {
  const expanded = ctx.isExpanded(kind, id);
  return h(
    'td',
    { class: 'col-toggle' },
    toggleButton({ expanded, controls: detailIdOf(kind, id), focus: `${id}:toggle`, describedBy, onToggle: () => ctx.toggle(kind, id) }),
  );
}

/** The Status cell: a badge. @param {string} status @param {Tone} tone */
export function statusCell(status, tone) {
  return h('td', { class: 'col-status', 'data-label': 'Status' }, badge(status, tone));
}

/** A time cell: the short time, the full time on hover. @param {string} label @param {string} iso @param {number} nowMs */
export function timeCell(label, iso, nowMs) {
  return h('td', { class: 'col-time', 'data-label': label, title: fullTime(iso) }, shortTime(iso, nowMs));
}

/** The Actions cell of an item's row. @param {...HTMLElement} buttons */
export function actionsCell(...buttons) {
  return h('td', { class: 'col-actions' }, h('div', { class: 'actions' }, buttons));
}

/**
 * A small row action. `tone` is the extra button class ('btn-ok', 'btn-danger'); `busy` marks
 * the action in flight; `describedBy` names the cell that identifies the item.
 * @param {string} label
 * @param {{ tone?: string, disabled: boolean, busy: boolean, focus: string, describedBy: string, onClick: () => void }} options
 */
export function actionButton(label, { tone, disabled, busy, focus, describedBy, onClick }) {
  return h(
    'button',
    {
      type: 'button',
      class: tone === undefined ? 'btn btn-sm' : `btn btn-sm ${tone}`,
      disabled,
      'aria-busy': busy ? 'true' : null,
      'aria-describedby': describedBy,
      dataset: { focus },
      onclick: onClick,
    },
    label,
  );
}

/**
 * The chevron that expands an item; its accessible name is "Details".
 * @param {{ expanded: boolean, controls: string, focus: string, describedBy?: string, onToggle: () => void }} options
 */
export function toggleButton({ expanded, controls, focus, describedBy, onToggle }) {
  return h(
    'button',
    {
      type: 'button',
      class: 'btn btn-ghost btn-icon toggle',
      'aria-expanded': String(expanded),
      'aria-controls': expanded ? controls : null,
      'aria-describedby': describedBy,
      'aria-label': 'Details',
      title: expanded ? 'Hide details' : 'Show details',
      dataset: { focus },
      onclick: onToggle,
    },
    h('span', { class: 'chevron', 'aria-hidden': 'true' }),
  );
}

/**
 * An empty state: a title, a sentence and, when given, a ready command with a Copy button.
 * @param {{ title: string, text: Child, command?: string, commandLabel?: string }} spec
 */
export function emptyState({ title, text, command, commandLabel = 'command' }) {
  return h(
    'div',
    { class: 'empty-inner' },
    h('p', { class: 'empty-title' }, title),
    h('p', { class: 'empty-text' }, text),
    command
      ? h(
          'div',
          { class: 'command' },
          h(
            'div',
            { class: 'command-bar' },
            h('span', null, 'Terminal'),
            copyButton(() => command, commandLabel),
          ),
          h('pre', { class: 'code', tabindex: '0', 'aria-label': commandLabel }, command),
        )
      : null,
  );
}

/** A definition list row, skipped when the value is empty. @param {string} term @param {...Child} value */
export function fact(term, ...value) {
  const parts = value.flat().filter((v) => v !== null && v !== undefined && v !== '' && v !== false);
  if (parts.length === 0) return null;
  return h('div', { class: 'fact' }, h('dt', null, term), h('dd', null, parts));
}

/** A monospace value with a Copy button. @param {string} value @param {string} what */
export function copyable(value, what) {
  return [h('span', { class: 'mono break' }, value), copyButton(() => value, what)];
}

/** The expanded details: columns side by side. @param {...HTMLElement} columns */
export function detailGrid(...columns) {
  return h('div', { class: 'detail-grid' }, columns);
}

/** A column of the details. @param {...Child} children */
export function detailColumn(...children) {
  return h('div', { class: 'detail-col' }, children);
}

/** A details column headed by a title and, when given, a copy button, above a code view. @param {string} title @param {HTMLElement | null} copy @param {HTMLElement} content */
export function codeColumn(title, copy, content) {
  return detailColumn(h('div', { class: 'code-head' }, h('h3', { class: 'detail-title' }, title), copy), content);
}

/** The "Record" column: the item as JSON, with a Copy button. `what` names it: 'transaction'. @param {unknown} record @param {string} what */
export function recordColumn(record, what) {
  const label = `${what.charAt(0).toUpperCase()}${what.slice(1)} record`;
  return codeColumn(
    'Record',
    copyButton(() => JSON.stringify(record, null, 2), `${what} JSON`),
    jsonView(record, { label }),
  );
}

/**
 * Records related to an item, titled with their count ("Refunds (2)"): a list item each,
 * with the parts `line(item)` returns, or the sentence `none` when there are none.
 * @template T
 * @param {{ title: string, items: readonly T[], none: string, className?: string, line(item: T): Child }} spec
 */
export function relatedList({ title, items, none, className = 'mini-list', line }) {
  return [
    h('h3', { class: 'detail-title' }, `${title} (${items.length})`),
    items.length === 0
      ? h('p', { class: 'muted small' }, none)
      : h(
          'ul',
          { class: className },
          items.map((item) => h('li', null, line(item))),
        ),
  ];
}

/** An "Open" link to a related item in another view; `href` is that view's fragment. @param {string} href @param {() => void} onOpen */
export function openLink(href, onOpen) {
  return h(
    'a',
    {
      href,
      /** @param {Event} event */
      onclick: (event) => {
        event.preventDefault();
        onOpen();
      },
    },
    'Open',
  );
}

/** A short time in faint text, the full time on hover. @param {string} iso @param {number} nowMs */
export function timeText(iso, nowMs) {
  return h('span', { class: 'faint', title: fullTime(iso) }, shortTime(iso, nowMs));
}
