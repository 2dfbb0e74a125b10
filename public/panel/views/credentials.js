/**
 * The credentials page: every account (the published demo accounts and created ones) with
 * copy buttons for its id, API key, JWT kid and private key; the webhook public key with a
 * verification snippet; a quick-start command; and a form that creates an isolated account.
 */
import { badge, copyButton, h, setChildren } from '../dom.js';
import { verifySnippet } from '../examples.js';

function secretRow(label, value, what) {
  return h('div', { class: 'cred-row' }, h('dt', null, label), h('dd', null, h('code', { class: 'cred-value' }, value), copyButton(() => value, what)));
}

function codeBlock(title, text, what) {
  return h('div', { class: 'command' }, h('div', { class: 'command-bar' }, h('span', null, title), copyButton(() => text, what)), h('pre', { class: 'code', tabindex: '0', 'aria-label': what }, text));
}

/** @param {object} ctx the panel's state and actions (panel.js) */
export function credentialsView(ctx) {
  const accountsEl = h('div', { class: 'cred-grid' });
  const keyEl = h('div', { class: 'card pad' });
  const quickEl = h('div', { class: 'card pad' });

  const modeSelect = h('select', { id: 'new-account-mode', name: 'mode' }, h('option', { value: 'direct' }, 'direct'), h('option', { value: 'checkout' }, 'checkout'));
  const nameInput = h('input', { id: 'new-account-name', name: 'name', type: 'text', maxlength: '64', placeholder: 'optional', autocomplete: 'off' });
  const createButton = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Create account');
  const createForm = h(
    'form',
    {
      class: 'card pad new-account',
      onsubmit: async (event) => {
        event.preventDefault();
        createButton.disabled = true;
        try {
          await ctx.createAccount(modeSelect.value, nameInput.value.trim() || undefined);
          nameInput.value = '';
        } finally {
          createButton.disabled = false;
        }
      },
    },
    h('h2', { class: 'card-title' }, 'New account'),
    h('p', { class: 'muted small' }, 'An isolated account with fresh credentials: accounts never see each other’s data, so parallel CI jobs can share one sandbox.'),
    h('div', { class: 'form-line' }, h('label', { for: 'new-account-mode' }, 'Mode'), modeSelect, h('label', { for: 'new-account-name' }, 'Name'), nameInput, createButton),
  );

  const root = h('div', { class: 'stack' }, accountsEl, h('div', { class: 'two-col' }, keyEl, quickEl), createForm);

  let shown = '';
  return {
    root,
    update() {
      const { accounts, webhookPublicKeyPem, accountId } = ctx.state;
      const signature = JSON.stringify([accounts, webhookPublicKeyPem, accountId]);
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
              a.account_id === accountId ? badge('selected', 'info') : h('button', { type: 'button', class: 'btn btn-sm', onclick: () => ctx.selectAccount(a.account_id) }, 'Use this account'),
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
                h('dd', null, h('details', { class: 'pem' }, h('summary', null, 'Show PEM'), h('pre', { class: 'code' }, a.jwt_private_key_pem)), copyButton(() => a.jwt_private_key_pem, `${a.name} JWT private key`)),
              ),
            ),
          ),
        ),
      );
      setChildren(
        keyEl,
        h('div', { class: 'cred-head' }, h('h2', { class: 'card-title' }, 'Webhook public key'), copyButton(() => webhookPublicKeyPem ?? '', 'webhook public key')),
        h('p', { class: 'muted small' }, 'Every webhook carries a base64 RSA-SHA256 signature of its exact raw body in the signature header. Verify it with this key (also at /_sandbox/webhook-public-key):'),
        h('pre', { class: 'code pem-block' }, webhookPublicKeyPem ?? ''),
        codeBlock('Node.js receiver', verifySnippet(), 'webhook receiver example'),
      );
      const account = ctx.account();
      setChildren(
        quickEl,
        h('h2', { class: 'card-title' }, 'Quick start'),
        account
          ? [
              h('p', { class: 'muted small' }, `Create a transaction with the ${account.name} account; it appears on the Transactions tab at once.`),
              codeBlock('Terminal', ctx.examples.createTransaction(account), 'curl command that creates a transaction'),
              h('p', { class: 'muted small' }, 'Then settle it here, or from a test:'),
              codeBlock('Terminal', ctx.examples.settle('<id>'), 'curl command that settles a transaction'),
            ]
          : h('p', { class: 'muted' }, 'No account selected.'),
      );
    },
  };
}
