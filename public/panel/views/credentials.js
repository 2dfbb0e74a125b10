/**
 * The credentials page: every account (the published demo accounts and created ones) with
 * copy buttons for its id, API key, JWT kid and private key; the webhook public key in each
 * published form (PEM, base64 DER, JWK, X.509 certificate), each with a copy button, and the
 * webhook handler in the merchant's language (views/handlers.js); a quick-start
 * command; and a form that creates an isolated account.
 */
import { badge, copyButton, h, setChildren } from '../dom.js';
import { apiKeysView } from './api-keys.js';
import { webhookHandlerPicker } from './handlers.js';

/** @import { PanelContext } from '../actions.js' */
/** @import { WebhookKeyForms } from '../types.js' */

/** @param {string} label @param {string} value @param {string} what */
function secretRow(label, value, what) {
  return h(
    'div',
    { class: 'cred-row' },
    h('dt', null, label),
    h(
      'dd',
      null,
      h('code', { class: 'cred-value' }, value),
      copyButton(() => value, what),
    ),
  );
}

/** @param {string} title @param {string} text @param {string} what */
function codeBlock(title, text, what) {
  return h(
    'div',
    { class: 'command' },
    h(
      'div',
      { class: 'command-bar' },
      h('span', null, title),
      copyButton(() => text, what),
    ),
    h('pre', { class: 'code', tabindex: '0', 'aria-label': what }, text),
  );
}

/**
 * The webhook key's forms: what each is for, its `?format=` and its text.
 * @param {WebhookKeyForms} key
 */
function keyForms(key) {
  return [
    { id: 'pem', title: 'PEM (SPKI)', use: 'Node.js, Python, Go, OpenSSL', text: key.pem },
    { id: 'der', title: 'DER, base64', use: 'Java (X509EncodedKeySpec), PHP and SDKs that take one line', text: key.der_base64 },
    { id: 'jwk', title: 'JWK', use: 'JOSE libraries, a JWKS', text: JSON.stringify(key.jwk, null, 2) },
    { id: 'x509', title: 'X.509 certificate', use: 'platforms that verify only against a certificate (self-signed)', text: key.x509_pem },
  ];
}

/** @param {PanelContext} ctx the panel's state and actions */
export function credentialsView(ctx) {
  const accountsEl = h('div', { class: 'cred-grid' });
  const keyEl = h('div', { class: 'card pad' });
  const quickEl = h('div', { class: 'card pad' });
  const handlerEl = h('div', { class: 'card pad' }, webhookHandlerPicker());

  const modeSelect = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 'new-account-mode', name: 'mode' },
      h('option', { value: 'direct' }, 'direct'),
      h('option', { value: 'checkout' }, 'checkout'),
    )
  );
  const nameInput = /** @type {HTMLInputElement} */ (
    h('input', { id: 'new-account-name', name: 'name', type: 'text', maxlength: '64', placeholder: 'optional', autocomplete: 'off' })
  );
  const createButton = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: 'btn btn-primary' }, 'Create account'));
  const createForm = h(
    'form',
    {
      class: 'card pad new-account',
      /** @param {SubmitEvent} event */
      onsubmit: async (event) => {
        event.preventDefault();
        createButton.disabled = true;
        try {
          await ctx.createAccount(modeSelect.value === 'checkout' ? 'checkout' : 'direct', nameInput.value.trim() || undefined);
          nameInput.value = '';
        } finally {
          createButton.disabled = false;
        }
      },
    },
    h('h2', { class: 'card-title' }, 'New account'),
    h(
      'p',
      { class: 'muted small' },
      'An isolated account with fresh credentials: accounts never see each other’s data, so parallel CI jobs can share one sandbox.',
    ),
    h(
      'div',
      { class: 'form-line' },
      h('label', { for: 'new-account-mode' }, 'Mode'),
      modeSelect,
      h('label', { for: 'new-account-name' }, 'Name'),
      nameInput,
      createButton,
    ),
  );

  const keysView = apiKeysView(ctx);
  const root = h(
    'div',
    { class: 'stack' },
    accountsEl,
    keysView.root,
    h('div', { class: 'two-col' }, keyEl, quickEl),
    handlerEl,
    createForm,
  );

  let shown = '';
  return {
    root,
    update() {
      keysView.update();
      const { accounts, webhookKey, accountId } = ctx.state;
      const signature = JSON.stringify([accounts, webhookKey, accountId]);
      if (signature === shown) return;
      shown = signature;
      setChildren(
        accountsEl,
        accounts.map((a) =>
          h(
            'section',
            { class: `card pad cred-card${a.account_id === accountId ? ' selected' : ''}`, 'aria-label': `Account ${a.name}` },
            h(
              'div',
              { class: 'cred-head' },
              h('h2', { class: 'card-title' }, a.name),
              h('span', { class: 'pill' }, `${a.mode} mode`),
              a.account_id === accountId
                ? badge('selected', 'info')
                : h('button', { type: 'button', class: 'btn btn-sm', onclick: () => ctx.selectAccount(a.account_id) }, 'Use this account'),
            ),
            h(
              'dl',
              { class: 'cred-list' },
              secretRow('Account id', a.account_id, `${a.name} account id`),
              secretRow('API key', a.api_key, `${a.name} API key`),
              secretRow('JWT kid', a.jwt_kid, `${a.name} JWT kid`),
              h(
                'div',
                { class: 'cred-row' },
                h('dt', null, 'JWT private key'),
                h(
                  'dd',
                  null,
                  h('details', { class: 'pem' }, h('summary', null, 'Show PEM'), h('pre', { class: 'code' }, a.jwt_private_key_pem)),
                  copyButton(() => a.jwt_private_key_pem, `${a.name} JWT private key`),
                ),
              ),
            ),
          ),
        ),
      );
      setChildren(
        keyEl,
        h('div', { class: 'cred-head' }, h('h2', { class: 'card-title' }, 'Webhook public key')),
        h(
          'p',
          { class: 'muted small' },
          'Every webhook carries a base64 RSA-SHA256 signature of its exact raw body in the signature header. Verify it with this key, in the form your verifier takes (also at /_sandbox/webhook-public-key?format=pem|der|jwk|x509):',
        ),
        webhookKey
          ? h(
              'div',
              { class: 'key-forms' },
              keyForms(webhookKey).map((form) =>
                h(
                  'section',
                  { class: 'key-form', dataset: { format: form.id }, 'aria-label': `Webhook public key as ${form.title}` },
                  h(
                    'div',
                    { class: 'key-form-head' },
                    h('div', { class: 'key-form-name' }, h('strong', null, form.title), h('span', { class: 'faint small' }, form.use)),
                    h(
                      'a',
                      {
                        class: 'btn btn-sm btn-ghost',
                        href: `/_sandbox/webhook-public-key?format=${form.id}`,
                        target: '_blank',
                        rel: 'noopener',
                        title: `GET /_sandbox/webhook-public-key?format=${form.id}`,
                      },
                      `?format=${form.id}`,
                    ),
                    copyButton(() => form.text, `webhook public key as ${form.title}`),
                  ),
                  h('details', { class: 'pem' }, h('summary', null, 'Show'), h('pre', { class: 'code key-text' }, form.text)),
                ),
              ),
            )
          : null,
      );
      const account = ctx.account();
      setChildren(
        quickEl,
        h('h2', { class: 'card-title' }, 'Quick start'),
        account
          ? [
              h(
                'p',
                { class: 'muted small' },
                `Create a transaction with the ${account.name} account; it appears on the Transactions tab at once.`,
              ),
              codeBlock('Terminal', ctx.examples.createTransaction(account), 'curl command that creates a transaction'),
              h('p', { class: 'muted small' }, 'Then settle it here, or from a test:'),
              codeBlock('Terminal', ctx.examples.settle('<id>'), 'curl command that settles a transaction'),
            ]
          : h('p', { class: 'muted' }, 'No account selected.'),
      );
    },
  };
}
