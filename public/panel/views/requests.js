/**
 * The API request log of the selected account: what the merchant's app actually sent to
 * /v4 (method, path, status, idempotency key, replayed, duration), and which creates' answers
 * never reached the client (a retry of one under a new key pays twice). Failed requests show the
 * error message and every validation detail without expanding; warnings (ignored unknown
 * fields) too. Expanding shows the request and response bodies.
 */
import { badge, bodyView, copyButton, h } from '../dom.js';
import { duration } from '../format.js';
import {
  TOGGLE_COLUMN,
  codeColumn,
  detailGrid,
  detailRow,
  emptyState,
  itemBody,
  listView,
  spanRow,
  timeCell,
  toggleCell,
} from './common.js';

/** @import { PanelContext } from '../actions.js' */
/** @import { RequestLogEntry } from '../types.js' */

/** @type {import('./common.js').Column[]} */
const COLUMNS = [
  TOGGLE_COLUMN,
  { title: 'Time', className: 'col-time' },
  { title: 'Request', className: 'col-main' },
  { title: 'Status', className: 'col-status' },
  { title: 'Idempotency key', className: 'col-key' },
  { title: 'Duration', className: 'col-duration' },
];

/** @param {number} status @returns {import('../dom.js').Tone} */
const statusTone = (status) => (status >= 500 ? 'danger' : status >= 400 ? 'warn' : 'ok');

/** @param {PanelContext} ctx the panel's state and actions */
export function requestsView(ctx) {
  /** @param {RequestLogEntry} entry */
  const signature = (entry) => JSON.stringify([entry, ctx.day(), ctx.isExpanded('request', entry.id)]);

  /** @param {RequestLogEntry} entry */
  function render(entry) {
    const envelope = entry.error;
    const tone = statusTone(entry.status);
    const main = h(
      'tr',
      { class: `row tone-${tone === 'ok' ? 'neutral' : tone}` },
      toggleCell(ctx, 'request', entry.id),
      timeCell('Time', entry.at, ctx.nowMs()),
      h(
        'td',
        { class: 'col-main', 'data-label': 'Request' },
        h('span', { class: `method method-${entry.method.toLowerCase()}` }, entry.method),
        ' ',
        h('span', { class: 'mono path' }, entry.path),
      ),
      h(
        'td',
        { class: 'col-status', 'data-label': 'Status' },
        h('span', { class: `status-code status-${tone}` }, String(entry.status)),
        entry.replayed ? badge('replayed', 'info') : null,
        entry.answer_delivered === false
          ? h(
              'span',
              {
                class: 'badge badge-danger answer-lost',
                title:
                  'The client never got this answer (the connection closed first, or a fault hid it): the create ran. Retry it with the same Idempotency-Key, never a new one.',
              },
              'answer lost',
            )
          : null,
      ),
      h(
        'td',
        { class: 'col-key', 'data-label': 'Idempotency key' },
        entry.idempotency_key
          ? h('span', { class: 'mono', title: entry.idempotency_key }, entry.idempotency_key)
          : h('span', { class: 'faint' }, '—'),
      ),
      h('td', { class: 'col-duration', 'data-label': 'Duration' }, duration(entry.duration_ms)),
    );
    const notes =
      envelope || entry.warnings.length > 0
        ? spanRow('note-row', COLUMNS, [
            envelope
              ? h(
                  'div',
                  { class: `request-error tone-text-${tone}` },
                  h('p', { class: 'request-error-message' }, h('span', { class: 'mono' }, envelope.code), ' ', envelope.message),
                  envelope.details.length > 0
                    ? h(
                        'ul',
                        { class: 'validation-details' },
                        envelope.details.map((d) =>
                          h(
                            'li',
                            null,
                            h('span', { class: 'mono pointer' }, d.pointer || '(body)'),
                            h('span', { class: 'faint' }, d.location ? ` in ${d.location}` : ''),
                            ' ',
                            d.message,
                            d.type ? h('span', { class: 'pill' }, d.type) : null,
                          ),
                        ),
                      )
                    : null,
                )
              : null,
            entry.warnings.length > 0
              ? h(
                  'ul',
                  { class: 'warnings' },
                  entry.warnings.map((w) => h('li', null, h('span', { class: 'warn-text' }, 'warning'), ' ', w)),
                )
              : null,
          ])
        : null;
    return itemBody(
      String(entry.id),
      main,
      notes,
      detailRow(ctx, 'request', entry.id, COLUMNS, () => details(entry)),
    );
  }

  /** @param {RequestLogEntry} entry */
  function details(entry) {
    const { request_body: requestBody, response_body: responseBody } = entry;
    return detailGrid(
      codeColumn(
        'Request body',
        requestBody ? copyButton(() => requestBody, 'request body') : null,
        entry.method === 'GET' ? h('p', { class: 'muted small' }, '(GET: no body)') : bodyView(entry.request_body, 'Request body'),
      ),
      codeColumn(
        `Response ${entry.status}`,
        responseBody ? copyButton(() => responseBody, 'response body') : null,
        responseBody
          ? bodyView(responseBody, 'Response body')
          : h('p', { class: 'muted small' }, 'Only the bodies of failed requests are kept.'),
      ),
    );
  }

  return listView(ctx, {
    list: 'requests',
    label: 'API requests',
    className: 'request-list',
    columns: COLUMNS,
    key: (entry) => String(entry.id),
    signature,
    render,
    emptyContent: () => {
      const account = ctx.account();
      return emptyState({
        title: 'No API requests yet',
        text: account
          ? `Every /v4 call made with the ${account.name} account's credentials is logged here, with the validation details of each 4xx. Try:`
          : 'Choose an account.',
        command: account ? ctx.examples.listTransactions(account) : undefined,
        commandLabel: 'curl command that lists transactions',
      });
    },
  });
}
