/**
 * Pieces every list view shares: the list view itself (table shell, keyed items, empty,
 * loading, error and "Load older" states), the item parts (one <tbody> per item, so an
 * item's row, its inline forms and its expanded details move together; the expand toggle,
 * status and action cells), the details parts (facts, related lists, the JSON record),
 * empty states with a ready command, and the status tones.
 */
import { badge, copyButton, h, jsonView, reconcile, setChildren } from '../dom.js';
import { fullTime, shortTime } from '../format.js';

/** Badge tone of each status the API returns. */
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
 * @param {{ label: string, className: string, columns: Array<{ title: string, className?: string, hidden?: boolean }> }} spec
 */
export function listShell({ label, className, columns, onMore }) {
  const head = h('thead', null, h('tr', null, columns.map((col) => h('th', { scope: 'col', class: col.className }, col.hidden ? h('span', { class: 'visually-hidden' }, col.title) : col.title))));
  const table = h('table', { class: `list ${className}`, 'aria-label': label }, head);
  const empty = h('div', { class: 'empty', hidden: true });
  const note = h('p', { class: 'list-note', hidden: true, role: 'status' });
  const more = h('button', { type: 'button', class: 'btn more-btn', hidden: true, onclick: onMore }, 'Load older');
  const root = h('div', { class: 'card list-card' }, h('div', { class: 'table-scroll' }, table), empty, note, more);
  return { root, table, head, empty, note, more };
}

const shownEmpty = new WeakMap();

/**
 * Shows the items or the empty state, and the "Load older" button when there is more.
 * @param {{ table: HTMLElement, empty: HTMLElement, more: HTMLElement, note: HTMLElement }} shell
 */
export function showListState(shell, { count, hasMore, loading, error, emptyContent }) {
  shell.table.hidden = count === 0;
  shell.empty.hidden = count > 0 || loading;
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
 * states. `error(list)` picks the error to show; `emptyContent(list)` builds the empty state.
 * @returns {{ root: HTMLElement, update(): void }}
 */
export function listView(ctx, { list: name, label, className, columns, key, signature, render, error = (list) => list.error, emptyContent }) {
  const shell = listShell({ label, className, columns, onMore: () => ctx.loadMore(name) });
  return {
    root: shell.root,
    update() {
      const list = ctx.state.lists[name];
      reconcile(shell.table, list.items, { key, signature, render, after: shell.head });
      showListState(shell, {
        count: list.items.length,
        hasMore: Boolean(list.nextCursor),
        loading: !list.loaded,
        error: error(list),
        emptyContent: () => emptyContent(list),
      });
    },
  };
}

/** The first column of an expandable list: its Details toggle. */
export const TOGGLE_COLUMN = { title: 'Details', className: 'col-toggle', hidden: true };
/** The last column of a list with row actions. */
export const ACTIONS_COLUMN = { title: 'Actions', className: 'col-actions', hidden: true };

/** An item's <tbody>: its rows (null skipped). */
export function itemBody(id, ...rows) {
  return h('tbody', { class: 'item', dataset: { item: id } }, rows);
}

/** A row under an item's main row that spans every column (an inline form, notes). */
export function spanRow(className, columns, content, id) {
  return h('tr', { class: className }, h('td', { colspan: String(columns.length), id }, content));
}

/** The id of the details row of item `id` of `kind` ('tx', 'sub', ...), which its toggle controls. */
const detailIdOf = (kind, id) => `${kind}-detail-${id}`;

/** The expanded details of an item, or null while it is collapsed; `details()` builds them. */
export function detailRow(ctx, kind, id, columns, details) {
  return ctx.isExpanded(kind, id) ? spanRow('detail-row', columns, details(), detailIdOf(kind, id)) : null;
}

/** The cell with an item's Details toggle; `describedBy` names the cell that identifies the item. */
export function toggleCell(ctx, kind, id, describedBy) {
  const expanded = ctx.isExpanded(kind, id);
  return h('td', { class: 'col-toggle' }, toggleButton({ expanded, controls: detailIdOf(kind, id), focus: `${id}:toggle`, describedBy, onToggle: () => ctx.toggle(kind, id) }));
}

/** The Status cell: a badge. */
export function statusCell(status, tone) {
  return h('td', { class: 'col-status', 'data-label': 'Status' }, badge(status, tone));
}

/** A time cell: the short time, the full time on hover. */
export function timeCell(label, iso, nowMs) {
  return h('td', { class: 'col-time', 'data-label': label, title: fullTime(iso) }, shortTime(iso, nowMs));
}

/** The Actions cell of an item's row. */
export function actionsCell(...buttons) {
  return h('td', { class: 'col-actions' }, h('div', { class: 'actions' }, buttons));
}

/**
 * A small row action. `tone` is the extra button class ('btn-ok', 'btn-danger'); `busy` marks
 * the action in flight; `describedBy` names the cell that identifies the item.
 */
export function actionButton(label, { tone, disabled, busy, focus, describedBy, onClick }) {
  return h(
    'button',
    { type: 'button', class: tone === undefined ? 'btn btn-sm' : `btn btn-sm ${tone}`, disabled, 'aria-busy': busy ? 'true' : null, 'aria-describedby': describedBy, dataset: { focus }, onclick: onClick },
    label,
  );
}

/** The chevron that expands an item; its accessible name is "Details". */
export function toggleButton({ expanded, controls, focus, describedBy, onToggle }) {
  return h(
    'button',
    { type: 'button', class: 'btn btn-ghost btn-icon toggle', 'aria-expanded': String(expanded), 'aria-controls': expanded ? controls : null, 'aria-describedby': describedBy, 'aria-label': 'Details', title: expanded ? 'Hide details' : 'Show details', dataset: { focus }, onclick: onToggle },
    h('span', { class: 'chevron', 'aria-hidden': 'true' }),
  );
}

/**
 * An empty state: a title, a sentence and, when given, a ready command with a Copy button.
 * @param {{ title: string, text: string | Node | Array<string | Node>, command?: string, commandLabel?: string }} spec
 */
export function emptyState({ title, text, command, commandLabel = 'command' }) {
  return h(
    'div',
    { class: 'empty-inner' },
    h('p', { class: 'empty-title' }, title),
    h('p', { class: 'empty-text' }, text),
    command
      ? h('div', { class: 'command' }, h('div', { class: 'command-bar' }, h('span', null, 'Terminal'), copyButton(() => command, commandLabel)), h('pre', { class: 'code', tabindex: '0', 'aria-label': commandLabel }, command))
      : null,
  );
}

/** A definition list row, skipped when the value is empty. */
export function fact(term, ...value) {
  const parts = value.flat().filter((v) => v !== null && v !== undefined && v !== '');
  if (parts.length === 0) return null;
  return h('div', { class: 'fact' }, h('dt', null, term), h('dd', null, parts));
}

/** A monospace value with a Copy button. */
export function copyable(value, what) {
  return [h('span', { class: 'mono break' }, value), copyButton(() => value, what)];
}

/** The expanded details: columns side by side. */
export function detailGrid(...columns) {
  return h('div', { class: 'detail-grid' }, columns);
}

/** A column of the details. */
export function detailColumn(...children) {
  return h('div', { class: 'detail-col' }, children);
}

/** A details column headed by a title and, when given, a copy button, above a code view. */
export function codeColumn(title, copy, content) {
  return detailColumn(h('div', { class: 'code-head' }, h('h3', { class: 'detail-title' }, title), copy), content);
}

/** The "Record" column: the item as JSON, with a Copy button. `what` names it: 'transaction'. */
export function recordColumn(record, what) {
  const label = `${what.charAt(0).toUpperCase()}${what.slice(1)} record`;
  return codeColumn('Record', copyButton(() => JSON.stringify(record, null, 2), `${what} JSON`), jsonView(record, { label }));
}

/**
 * Records related to an item, titled with their count ("Refunds (2)"): a list item each,
 * with the parts `line(item)` returns, or the sentence `none` when there are none.
 */
export function relatedList({ title, items, none, className = 'mini-list', line }) {
  return [
    h('h3', { class: 'detail-title' }, `${title} (${items.length})`),
    items.length === 0 ? h('p', { class: 'muted small' }, none) : h('ul', { class: className }, items.map((item) => h('li', null, line(item)))),
  ];
}

/** An "Open" link to a related item in another view; `href` is that view's fragment. */
export function openLink(href, onOpen) {
  return h(
    'a',
    {
      href,
      onclick: (event) => {
        event.preventDefault();
        onOpen();
      },
    },
    'Open',
  );
}

/** A short time in faint text, the full time on hover. */
export function timeText(iso, nowMs) {
  return h('span', { class: 'faint', title: fullTime(iso) }, shortTime(iso, nowMs));
}
