/**
 * The webhook delivery log of the selected account: each delivery's state (delivered,
 * queued, retrying, failed), target and last answer, with Resend. The list carries no attempt
 * bodies; expanding a delivery fetches it whole (`GET /_sandbox/deliveries/{id}`) and shows every
 * attempt: time, URL, the exact request headers (signature included) and body, the
 * merchant's status and body or the error, each copyable, and the attempt as a curl command.
 * Above the log, a form runs the check-webhooks battery against a merchant URL and shows its
 * report case by case.
 */
import { call } from '../api.js';
import { badge, bodyView, copyButton, h, setChildren, shellQuote } from '../dom.js';
import { duration, fullTime, shortId, shortTime } from '../format.js';
import {
  ACTIONS_COLUMN,
  TOGGLE_COLUMN,
  TONES,
  actionButton,
  actionsCell,
  detailRow,
  emptyState,
  itemBody,
  listView,
  statusCell,
  timeCell,
  toggleCell,
} from './common.js';

/** @import { PanelContext } from '../actions.js' */
/** @import { Delivery, DeliveryAttempt, DeliverySummary, SignatureExplanation, WebhookCheckReport } from '../types.js' */

/** The message of a failed call. @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * "Why did my check fail?": paste the body and the signature header the handler verified (and,
 * optionally, the delivery and the public key it used); the sandbox names one cause, the first
 * differing byte and the fix (`POST /_sandbox/signatures/explain`).
 */
function explainForm() {
  const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ input) =>
    h('div', { class: 'field' }, h('label', { for: id }, label), input);
  const body = h('textarea', {
    id: 'explain-body',
    name: 'body',
    rows: 4,
    required: true,
    class: 'input mono',
    placeholder: '{"ll_transaction_id":...}',
  });
  const signature = h('input', {
    id: 'explain-signature',
    name: 'signature',
    required: true,
    class: 'input mono',
    placeholder: 'the signature header',
  });
  const deliveryId = h('input', { id: 'explain-delivery', name: 'delivery_id', class: 'input mono', placeholder: 'optional' });
  const publicKey = h('textarea', {
    id: 'explain-key',
    name: 'public_key',
    rows: 2,
    class: 'input mono',
    placeholder: 'optional: -----BEGIN PUBLIC KEY-----',
  });
  const button = h('button', { type: 'submit', class: 'btn btn-sm btn-primary' }, 'Explain');
  const result = h('div', { class: 'explain-result', 'aria-live': 'polite' });
  /** @param {SignatureExplanation} e */
  const show = (e) =>
    setChildren(
      result,
      h(
        'p',
        null,
        badge(e.cause, e.valid ? 'ok' : 'danger'),
        e.delivery_id ? h('span', { class: 'muted small' }, ` delivery ${e.delivery_id}`) : null,
      ),
      h('p', { class: 'explain-detail' }, e.detail),
      e.first_difference
        ? h(
            'dl',
            { class: 'explain-difference mono small' },
            h('dt', null, `sent from byte ${e.first_difference.offset}`),
            h('dd', null, JSON.stringify(e.first_difference.sent)),
            h('dt', null, 'verified from there'),
            h('dd', null, JSON.stringify(e.first_difference.received)),
          )
        : null,
      h('p', { class: 'hint small explain-fix' }, h('strong', null, 'Fix: '), e.fix),
    );
  const value = (/** @type {HTMLElement} */ el) => /** @type {HTMLInputElement} */ (el).value;
  return h(
    'form',
    {
      class: 'explain-signature',
      'aria-label': 'Why did my signature check fail?',
      /** @param {Event} event */
      onsubmit: async (event) => {
        event.preventDefault();
        button.setAttribute('disabled', '');
        try {
          /** @type {Record<string, string>} */
          const request = { body: value(body), signature: value(signature) };
          if (value(deliveryId).trim()) request.delivery_id = value(deliveryId).trim();
          if (value(publicKey).trim()) request.public_key = value(publicKey);
          show(/** @type {SignatureExplanation} */ (await call('POST', '/signatures/explain', request)));
        } catch (err) {
          setChildren(result, h('p', { class: 'form-error', role: 'alert' }, messageOf(err)));
        } finally {
          button.removeAttribute('disabled');
        }
      },
    },
    h('h3', { class: 'form-title' }, 'Why did my signature check fail?'),
    h(
      'p',
      { class: 'hint small' },
      'Paste what your handler verified: the raw body and the signature header. The sandbox compares them with the bytes it sent.',
    ),
    field('explain-body', 'Body your handler verified', body),
    field('explain-signature', 'Signature header it verified', signature),
    field('explain-delivery', 'Delivery id', deliveryId),
    field('explain-key', 'Public key it used (PEM)', publicKey),
    button,
    result,
  );
}

/**
 * "Edit and send" of a past delivery: its body in a text area, its URL, and Send signed, which
 * queues the edited text byte for byte as a new delivery (`POST /_sandbox/webhooks/send`).
 * @param {DeliverySummary} d
 */
function editAndSend(d) {
  const id = `send-${d.id}`;
  const body = h('textarea', { id: `${id}-body`, rows: 6, class: 'input mono send-body' });
  /** @type {HTMLTextAreaElement} */ (body).value = d.body;
  const url = h('input', {
    id: `${id}-url`,
    type: 'url',
    class: 'input mono',
    value: d.url ?? '',
    placeholder: 'default: --notification-url',
  });
  const button = h('button', { type: 'submit', class: 'btn btn-sm btn-primary' }, 'Send signed');
  const result = h('p', { class: 'muted small', 'aria-live': 'polite' });
  return h(
    'form',
    {
      class: 'edit-and-send',
      'aria-label': 'Edit and send this webhook',
      /** @param {Event} event */
      onsubmit: async (event) => {
        event.preventDefault();
        button.setAttribute('disabled', '');
        try {
          const target = /** @type {HTMLInputElement} */ (url).value.trim();
          /** @type {Delivery} */
          const sent = await call('POST', '/webhooks/send', {
            account_id: d.merchant_account_id,
            body: /** @type {HTMLTextAreaElement} */ (body).value,
            ...(target ? { url: target } : {}),
          });
          setChildren(result, `Queued as delivery ${sent.id} to ${sent.url}: signed and retried as every webhook.`);
        } catch (err) {
          setChildren(result, h('span', { class: 'form-error', role: 'alert' }, messageOf(err)));
        } finally {
          button.removeAttribute('disabled');
        }
      },
    },
    h('h4', null, 'Edit and send'),
    h('label', { for: `${id}-body` }, 'Body (sent byte for byte, signed)'),
    body,
    h('label', { for: `${id}-url` }, 'URL'),
    url,
    button,
    result,
  );
}

/**
 * The check-webhooks form: a merchant URL, an optional state URL and orders the shop created, a
 * Check button, and the report (each case passed, failed or needing orders, with its reason). Its state is its own; the list's updates do not touch it.
 * @param {PanelContext} ctx
 */
function checkWebhooksForm(ctx) {
  const input = h('input', {
    type: 'url',
    id: 'check-webhooks-url',
    name: 'url',
    required: true,
    placeholder: 'http://127.0.0.1:3000/webhooks',
    class: 'input mono',
    'aria-describedby': 'check-webhooks-hint',
  });
  const stateInput = h('input', {
    type: 'url',
    id: 'check-webhooks-state-url',
    name: 'state_url',
    placeholder: 'optional state URL: http://127.0.0.1:3000/orders',
    class: 'input mono',
    'aria-label': 'State URL of your test build (optional)',
  });
  const ordersInput = h('input', {
    type: 'text',
    id: 'check-webhooks-orders',
    name: 'orders',
    placeholder: 'optional orders your shop created: order-1001,order-1002,…',
    class: 'input mono',
    'aria-label': 'Pending orders your shop created (optional, comma-separated; needs a state URL)',
  });
  const button = h('button', { type: 'submit', class: 'btn btn-sm btn-primary' }, 'Check handler');
  const result = h('div', { class: 'check-report', 'aria-live': 'polite' });

  /** @param {WebhookCheckReport} report */
  const summary = (report) => {
    const total = report.checks.length;
    const failed = report.checks.filter((c) => c.outcome === 'failed').length;
    const needing = report.needsOrders.length;
    if (failed === 0 && needing === 0) return `All ${total} checks passed for ${report.url}.`;
    const needs = needing === 0 ? '' : ` ${needing} of ${total} need orders your shop created (not failures).`;
    return `${failed} of ${total} checks failed for ${report.url}.${needs}`;
  };
  /** @type {Record<WebhookCheckReport['checks'][number]['outcome'], [string, import('../dom.js').Tone]>} */
  const BADGES = { passed: ['passed', 'ok'], failed: ['failed', 'danger'], needs_orders: ['needs orders', 'warn'] };
  /** @param {WebhookCheckReport} report */
  const showReport = (report) =>
    setChildren(
      result,
      h('p', { class: !report.passed ? 'error-text' : report.needsOrders.length > 0 ? 'warn-text' : 'ok-text' }, summary(report)),
      h(
        'ul',
        { class: 'mini-list check-list' },
        report.checks.map((c) =>
          h(
            'li',
            { dataset: { check: c.id } },
            badge(...BADGES[c.outcome]),
            h('span', null, c.title),
            h('span', { class: 'muted small' }, c.reason),
          ),
        ),
      ),
    );

  const form = h(
    'form',
    {
      class: 'check-webhooks',
      'aria-label': 'Check a webhook handler',
      /** @param {Event} event */
      onsubmit: async (event) => {
        event.preventDefault();
        const url = /** @type {HTMLInputElement} */ (input).value.trim();
        const stateUrl = /** @type {HTMLInputElement} */ (stateInput).value.trim();
        const orders = /** @type {HTMLInputElement} */ (ordersInput).value
          .split(',')
          .map((o) => o.trim())
          .filter((o) => o !== '');
        button.setAttribute('disabled', '');
        button.setAttribute('aria-busy', 'true');
        setChildren(result, h('p', { class: 'muted small' }, `Sending the battery to ${url}…`));
        try {
          showReport(await ctx.checkWebhooks(url, stateUrl || undefined, orders));
        } catch (err) {
          setChildren(result, h('p', { class: 'form-error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
        } finally {
          button.removeAttribute('disabled');
          button.removeAttribute('aria-busy');
        }
      },
    },
    h('label', { for: 'check-webhooks-url' }, 'Check your webhook handler'),
    input,
    stateInput,
    ordersInput,
    button,
    h(
      'p',
      { class: 'hint small', id: 'check-webhooks-hint' },
      'Sends valid, tampered, duplicate, out-of-order and next-version webhooks to the URL and reports whether it answers as a production-ready handler must (as payment-sandbox check-webhooks does). With a state URL it also checks what the handler did: GET <state URL>/<merchant_transaction_id> after each case. A shop that answers 404 for orders it never created names pending orders it created (up to nine); without them those cases need orders, which is not a failure.',
    ),
    result,
  );
  return form;
}

/** @type {import('./common.js').Column[]} */
const COLUMNS = [
  TOGGLE_COLUMN,
  { title: 'Status', className: 'col-status' },
  { title: 'Webhook', className: 'col-main' },
  { title: 'Target', className: 'col-url' },
  { title: 'Last answer', className: 'col-answer' },
  { title: 'Attempts', className: 'col-count' },
  { title: 'Created', className: 'col-time' },
  ACTIONS_COLUMN,
];

/**
 * One attempt as a curl command that sends the same bytes with the same headers.
 * @param {DeliveryAttempt} attempt
 * @param {string} body the delivery's body, which every attempt sent
 */
export function attemptCurl(attempt, body) {
  const lines = [`curl -X POST ${shellQuote(attempt.url ?? '')}`];
  for (const [name, value] of Object.entries(attempt.request_headers)) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  lines.push(`  --data-binary ${shellQuote(body)}`);
  return lines.join(' \\\n');
}

/** @param {PanelContext} ctx the panel's state and actions */
export function deliveriesView(ctx) {
  /**
   * The whole deliveries opened, by id: fetched once per state of the delivery (a new attempt fetches it again).
   * @type {Map<string, { key: string, delivery: Promise<Delivery> }>}
   */
  const opened = new Map();

  /** The delivery `d` with its attempts' bodies. @param {DeliverySummary} d @returns {Promise<Delivery>} */
  function whole(d) {
    const key = `${d.status}:${d.attempts_count}:${d.attempts.length}`;
    const known = opened.get(d.id);
    if (known && known.key === key) return known.delivery;
    /** @type {Promise<Delivery>} */
    const delivery = call('GET', `/deliveries/${encodeURIComponent(d.id)}`);
    delivery.catch(() => opened.delete(d.id));
    opened.set(d.id, { key, delivery });
    return delivery;
  }

  /** @param {DeliverySummary} d */
  const signature = (d) => JSON.stringify([d, ctx.day(), ctx.isExpanded('delivery', d.id), ctx.busyFor(d.id)]);

  /** @param {DeliverySummary} d */
  function render(d) {
    const state = d.state;
    const tone = TONES[state] ?? 'neutral';
    const busy = ctx.busyFor(d.id);
    const refId = `delivery-ref-${d.id}`;
    const last = d.attempts.at(-1);
    const ref = d.reference;

    const answer = !last
      ? h('span', { class: 'faint' }, d.next_attempt_at ? 'not sent yet' : '—')
      : last.ok
        ? h('span', { class: 'ok-text mono' }, `${last.response_status} · ${duration(last.duration_ms)}`)
        : h(
            'span',
            { class: 'error-text', title: last.error ?? '' },
            last.response_status ? `HTTP ${last.response_status}` : (last.error ?? 'failed'),
          );

    const main = h(
      'tr',
      { class: `row tone-${tone}${state === 'failed' || state === 'retrying' ? ' attention' : ''}` },
      toggleCell(ctx, 'delivery', d.id, refId),
      statusCell(state, tone),
      h(
        'td',
        { class: 'col-main', 'data-label': 'Webhook', id: refId },
        h('div', { class: 'primary-line' }, h('span', { class: 'mono', title: d.resource_id }, ref ?? shortId(d.resource_id))),
        h(
          'div',
          { class: 'secondary-line' },
          `${d.kind} webhook`,
          d.canary
            ? h(
                'span',
                { title: 'A copy with a broken signature, sent once to this URL: the handler must refuse it' },
                ' · ',
                badge('canary', 'info'),
              )
            : null,
          state === 'retrying' && d.next_attempt_at
            ? h(
                'span',
                { class: 'warn-text', title: fullTime(d.next_attempt_at) },
                ` · next attempt ${shortTime(d.next_attempt_at, ctx.nowMs())}`,
              )
            : state === 'failed'
              ? h('span', { class: 'error-text' }, ' · gave up; Resend to try again')
              : null,
        ),
      ),
      h(
        'td',
        { class: 'col-url', 'data-label': 'Target' },
        d.url
          ? h('span', { class: 'mono url', title: d.url }, d.url.replace(/^https?:\/\//, ''))
          : h('span', { class: 'error-text' }, 'no notification URL'),
      ),
      h('td', { class: 'col-answer', 'data-label': 'Last answer' }, answer),
      h('td', { class: 'col-count', 'data-label': 'Attempts' }, String(d.attempts_count)),
      timeCell('Created', d.created_at, ctx.nowMs()),
      actionsCell(
        actionButton('Resend', {
          disabled: Boolean(busy),
          busy: Boolean(busy),
          focus: `${d.id}:resend`,
          describedBy: refId,
          onClick: () => void ctx.resend(d),
        }),
      ),
    );
    return itemBody(
      d.id,
      main,
      detailRow(ctx, 'delivery', d.id, COLUMNS, () => details(d)),
    );
  }

  /** @param {DeliverySummary} d */
  function details(d) {
    const head = h(
      'div',
      { class: 'delivery-summary' },
      h('span', null, `${d.kind} webhook for `, h('span', { class: 'mono' }, d.resource_id)),
      d.delivered_at ? h('span', { class: 'ok-text' }, `delivered ${fullTime(d.delivered_at)}`) : null,
      d.next_attempt_at ? h('span', { class: 'warn-text' }, `next attempt ${fullTime(d.next_attempt_at)}`) : null,
      h('span', { class: 'spacer' }),
      copyButton(() => d.body, 'webhook body', { label: 'Copy body' }),
    );
    if (d.attempts.length === 0) {
      return h(
        'div',
        { class: 'delivery-detail' },
        head,
        h('p', { class: 'muted small' }, 'Not attempted yet. The body that will be sent:'),
        bodyView(d.body, 'Webhook body'),
        editAndSend(d),
      );
    }
    const attempts = h(
      'div',
      { class: 'attempts-box', 'aria-busy': 'true' },
      h('p', { class: 'muted small' }, `Loading ${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}…`),
    );
    whole(d).then(
      (delivery) => {
        attempts.removeAttribute('aria-busy');
        setChildren(
          attempts,
          h(
            'ol',
            { class: 'attempts', reversed: true },
            [...delivery.attempts].reverse().map((a) => attemptView(a, delivery.body)),
          ),
        );
      },
      (err) => {
        attempts.removeAttribute('aria-busy');
        setChildren(
          attempts,
          h(
            'p',
            { class: 'form-error', role: 'alert' },
            `Could not load the attempts: ${err instanceof Error ? err.message : String(err)}`,
          ),
        );
      },
    );
    return h('div', { class: 'delivery-detail' }, head, attempts, editAndSend(d));
  }

  /**
   * @param {DeliveryAttempt} a
   * @param {string} body the delivery's body, which every attempt sent (stored once)
   */
  function attemptView(a, body) {
    const headers = a.request_headers;
    return h(
      'li',
      { class: `attempt ${a.ok ? 'attempt-ok' : 'attempt-failed'}` },
      h(
        'div',
        { class: 'attempt-head' },
        h('strong', null, `Attempt ${a.number}`),
        badge(a.ok ? 'acknowledged' : 'failed', a.ok ? 'ok' : 'danger'),
        h('span', { title: fullTime(a.at) }, shortTime(a.at, ctx.nowMs())),
        h('span', { class: 'mono url', title: a.url ?? '' }, `POST ${a.url ?? '(no URL)'}`),
        a.response_status !== null ? h('span', { class: 'mono' }, `→ ${a.response_status}`) : null,
        h('span', { class: 'faint' }, duration(a.duration_ms)),
      ),
      a.error ? h('p', { class: 'attempt-error' }, a.error) : null,
      h(
        'div',
        { class: 'attempt-grid' },
        h(
          'section',
          { class: 'attempt-part', 'aria-label': `Attempt ${a.number} request` },
          h(
            'div',
            { class: 'code-head' },
            h('h4', null, 'Request headers'),
            copyButton(
              () =>
                Object.entries(headers)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join('\n'),
              `attempt ${a.number} request headers`,
            ),
          ),
          h(
            'table',
            { class: 'headers' },
            h(
              'tbody',
              null,
              Object.entries(headers).map(([k, v]) =>
                h('tr', null, h('th', { scope: 'row', class: 'mono' }, k), h('td', { class: 'mono break' }, v)),
              ),
            ),
          ),
          h(
            'div',
            { class: 'code-head' },
            h('h4', null, 'Request body'),
            copyButton(() => body, `attempt ${a.number} request body`),
            copyButton(() => attemptCurl(a, body), `attempt ${a.number} as a curl command`, { label: 'Copy as curl' }),
          ),
          bodyView(body, `Attempt ${a.number} request body`),
        ),
        h(
          'section',
          { class: 'attempt-part', 'aria-label': `Attempt ${a.number} response` },
          h(
            'div',
            { class: 'code-head' },
            h('h4', null, a.response_status !== null ? `Response ${a.response_status}` : 'Response'),
            a.response_body ? copyButton(() => a.response_body ?? '', `attempt ${a.number} response body`) : null,
          ),
          a.response_status === null
            ? h('p', { class: 'muted small' }, 'No HTTP answer.')
            : bodyView(a.response_body, `Attempt ${a.number} response body`),
          a.ok ? null : h('p', { class: 'hint small' }, 'Acknowledge with HTTP 2xx and the body {"code":"200","message":"SUCCESS"}.'),
        ),
      ),
    );
  }

  const list = listView(ctx, {
    list: 'deliveries',
    label: 'Webhook deliveries',
    className: 'delivery-list',
    columns: COLUMNS,
    key: (d) => d.id,
    signature,
    render,
    emptyContent: () => {
      const pending = ctx.state.lists.transactions.items.find((tx) => tx.status === 'PENDING');
      const account = ctx.account();
      return emptyState({
        title: 'No webhooks yet',
        text:
          "Settle, fail or refund a transaction and its webhook appears here with every delivery attempt. Webhooks go to the transaction's notification_url, a subscription's payment_method.webhooks_url, or the sandbox's --notification-url." +
          (pending ? ' Settle your pending transaction:' : account ? ' Create a transaction first:' : ''),
        command: pending ? ctx.examples.settle(pending.id) : account ? ctx.examples.createTransaction(account) : undefined,
        commandLabel: pending ? 'curl command that settles the pending transaction' : 'curl command that creates a transaction',
      });
    },
  });
  return { root: h('div', { class: 'webhooks-view' }, checkWebhooksForm(ctx), explainForm(), list.root), update: () => list.update() };
}
