/**
 * The webhook handler picker of the Credentials view: the handler in the language the
 * merchant picks (Node.js, Python, PHP, Ruby, Go, Java), with its run command and a copy
 * button. The text comes from `GET /_sandbox/webhook-handlers`, which reads the package's
 * handler files (examples/webhook-handlers/), so the panel shows exactly what CI runs.
 */
import { call } from '../api.js';
import { copyButton, h, setChildren } from '../dom.js';

/** @typedef {import('../../../src/features/webhooks/webhook-handler-files.js').WebhookHandlerExample} WebhookHandler */

const STORAGE_KEY = 'payment-sandbox.handler-language';

/** The language picked last time in this browser, if any. */
function rememberedLanguage() {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** @param {string} language */
function rememberLanguage(language) {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
}

/**
 * The picker: a row of language buttons over the chosen handler. Loads the handlers once.
 * @returns {HTMLElement}
 */
export function webhookHandlerPicker() {
  const buttons = h('div', { class: 'handler-languages', role: 'group', 'aria-label': 'Handler language' });
  const body = h('div', { class: 'handler-body' }, h('p', { class: 'muted small' }, 'Loading the handlers…'));
  const root = h(
    'section',
    { class: 'handler-picker', 'aria-label': 'Webhook handler' },
    h('div', { class: 'cred-head' }, h('h3', { class: 'card-title' }, 'Webhook handler')),
    h(
      'p',
      { class: 'muted small' },
      'A complete handler in your language: it verifies the signature over the raw body, refuses a bad one (401), acknowledges, and handles each (ll_transaction_id, status) pair once. The same code as the files in examples/webhook-handlers/ of the package; check it with payment-sandbox check-webhooks.',
    ),
    buttons,
    body,
  );

  /** @param {WebhookHandler[]} handlers @param {string} language */
  const show = (handlers, language) => {
    const chosen = handlers.find((x) => x.language === language) ?? handlers[0];
    if (!chosen) return;
    setChildren(
      buttons,
      handlers.map((x) =>
        h(
          'button',
          {
            type: 'button',
            class: `btn btn-sm${x === chosen ? ' btn-primary' : ''}`,
            'aria-pressed': String(x === chosen),
            dataset: { language: x.language },
            onclick: () => {
              rememberLanguage(x.language);
              show(handlers, x.language);
            },
          },
          x.name,
        ),
      ),
    );
    setChildren(
      body,
      h('p', { class: 'muted small' }, 'Save as ', h('code', null, chosen.file), ', then run:'),
      h(
        'div',
        { class: 'command' },
        h(
          'div',
          { class: 'command-bar' },
          h('span', null, 'Terminal'),
          copyButton(() => chosen.run, `${chosen.name} run command`),
        ),
        h('pre', { class: 'code handler-run' }, chosen.run),
      ),
      h(
        'div',
        { class: 'command' },
        h(
          'div',
          { class: 'command-bar' },
          h('span', null, chosen.file),
          copyButton(() => chosen.code, `${chosen.name} webhook handler`),
        ),
        h(
          'pre',
          {
            class: 'code handler-code',
            tabindex: '0',
            'aria-label': `${chosen.name} webhook handler`,
            dataset: { language: chosen.language },
          },
          chosen.code,
        ),
      ),
    );
  };

  call('GET', '/webhook-handlers').then(
    (answer) => {
      const { handlers } = /** @type {{ handlers: WebhookHandler[] }} */ (answer);
      show(handlers, rememberedLanguage() ?? 'node');
    },
    (err) =>
      setChildren(
        body,
        h('p', { class: 'error-text small' }, `The handlers could not be loaded: ${err instanceof Error ? err.message : String(err)}`),
      ),
  );
  return root;
}
