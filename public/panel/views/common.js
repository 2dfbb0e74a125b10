/**
 * Pieces every list view shares: the table shell (one <tbody> per item, so an item's row,
 * its inline forms and its expanded details move together), the expand toggle, empty
 * states with a ready command, and the status tones.
 */
import { copyButton, h, setChildren } from '../dom.js';

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
