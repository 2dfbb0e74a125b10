/**
 * Restricted API keys of the selected account, on the credentials page: the account's keys
 * (name, scopes, redacted secret) each with Revoke (asks once more), and a form that mints a
 * key with the chosen scopes and shows its secret once, with a copy button. A client of
 * `/_sandbox/accounts/{id}/api-keys` like any CI script.
 */
import { ApiError, call } from '../api.js';
import { badge, copyButton, h, setChildren } from '../dom.js';
import { shortTime } from '../format.js';
import { showError, toast } from '../toasts.js';

/** @import { PanelContext } from '../actions.js' */

/**
 * The API's scopes (README "Restricted keys"); the control API refuses any other.
 * @type {readonly { scope: string, what: string }[]}
 */
const SCOPES = [
  { scope: 'transactions.read', what: 'get and list transactions and their refunds' },
  { scope: 'transactions.write', what: 'create transactions' },
  { scope: 'refunds.write', what: 'refund transactions' },
  { scope: 'buyers.read', what: 'list buyers' },
  { scope: 'subscriptions.read', what: 'get and list subscriptions' },
  { scope: 'subscriptions.write', what: 'create and cancel subscriptions' },
];

/**
 * @typedef {{ id: string, object: 'api_key', account_id: string, name: string | null, scopes: string[], redacted_secret: string, created_at: string }} ApiKey
 * @typedef {ApiKey & { secret: string }} MintedApiKey
 */

/** @param {PanelContext} ctx the panel's state and actions */
export function apiKeysView(ctx) {
  const listEl = h('div', { class: 'api-key-list' });
  const mintedEl = h('div', { 'aria-live': 'polite' });
  const nameInput = /** @type {HTMLInputElement} */ (
    h('input', {
      id: 'api-key-name',
      name: 'name',
      type: 'text',
      maxlength: '100',
      placeholder: 'optional, e.g. reporting job',
      autocomplete: 'off',
    })
  );
  const boxes = SCOPES.map(({ scope, what }) => {
    const box = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', name: 'scopes', value: scope, id: `scope-${scope}` }));
    return {
      box,
      label: h(
        'label',
        { class: 'api-key-scope', for: `scope-${scope}`, title: what },
        box,
        h('code', null, scope),
        h('span', { class: 'faint small' }, what),
      ),
    };
  });
  const formError = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const mintButton = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: 'btn btn-primary' }, 'Mint key'));
  const titleEl = h('h2', { class: 'card-title' }, 'Restricted API keys');

  /** @type {string | null} the account whose keys are shown */
  let loadedFor = null;
  /** @type {ApiKey[]} */
  let keys = [];
  /** @type {string | null} the key whose Revoke waits for its confirmation */
  let confirming = null;

  const accountId = () => ctx.state.accountId;

  async function load() {
    const id = accountId();
    loadedFor = id;
    if (!id) {
      keys = [];
      draw();
      return;
    }
    try {
      const answer = /** @type {{ items: ApiKey[] }} */ (await call('GET', `/accounts/${encodeURIComponent(id)}/api-keys`));
      if (loadedFor === id) keys = answer.items;
    } catch (err) {
      showError('Could not list the API keys', err);
    }
    draw();
  }

  /** @param {ApiKey} key */
  async function revoke(key) {
    try {
      await call('DELETE', `/accounts/${encodeURIComponent(key.account_id)}/api-keys/${encodeURIComponent(key.id)}`);
      toast({ title: 'Key revoked', message: `${key.name ?? key.redacted_secret} now answers 401.` });
    } catch (err) {
      showError('Could not revoke the key', err);
    }
    confirming = null;
    await load();
  }

  function draw() {
    setChildren(
      listEl,
      keys.length === 0
        ? h('p', { class: 'muted small' }, 'No restricted keys yet. The account’s own API key above has every scope.')
        : h(
            'ul',
            { class: 'mini-list api-keys' },
            keys.map((key) =>
              h(
                'li',
                { dataset: { keyId: key.id }, 'aria-label': `API key ${key.name ?? key.redacted_secret}` },
                h('strong', null, key.name ?? 'unnamed'),
                h('code', null, key.redacted_secret),
                key.scopes.map((scope) => badge(scope, 'neutral')),
                h('span', { class: 'faint small' }, `created ${shortTime(key.created_at)}`),
                h('span', { class: 'spacer' }),
                confirming === key.id
                  ? [
                      h('button', { type: 'button', class: 'btn btn-sm btn-danger', onclick: () => void revoke(key) }, 'Revoke now'),
                      h('button', { type: 'button', class: 'btn btn-sm', onclick: () => ((confirming = null), draw()) }, 'Keep'),
                    ]
                  : h('button', { type: 'button', class: 'btn btn-sm', onclick: () => ((confirming = key.id), draw()) }, 'Revoke'),
              ),
            ),
          ),
    );
  }

  const form = h(
    'form',
    {
      class: 'api-key-form',
      /** @param {SubmitEvent} event */
      onsubmit: async (event) => {
        event.preventDefault();
        const id = accountId();
        const scopes = boxes.filter(({ box }) => box.checked).map(({ box }) => box.value);
        formError.hidden = true;
        if (!id) return;
        if (scopes.length === 0) {
          formError.textContent = 'Choose at least one scope.';
          formError.hidden = false;
          return;
        }
        mintButton.disabled = true;
        try {
          const name = nameInput.value.trim();
          const key = /** @type {MintedApiKey} */ (
            await call('POST', `/accounts/${encodeURIComponent(id)}/api-keys`, name ? { scopes, name } : { scopes })
          );
          nameInput.value = '';
          for (const { box } of boxes) box.checked = false;
          setChildren(
            mintedEl,
            h(
              'div',
              { class: 'api-key-secret', role: 'status' },
              h(
                'p',
                null,
                h('strong', null, 'Copy this secret now: '),
                'it is shown once and never again (only its last four characters are kept).',
              ),
              h(
                'div',
                { class: 'cred-row' },
                h('dt', null, key.name ?? 'New key'),
                h(
                  'dd',
                  null,
                  h('code', { class: 'cred-value', dataset: { secret: '' } }, key.secret),
                  copyButton(() => key.secret, 'the new API key'),
                ),
              ),
              h('button', { type: 'button', class: 'btn btn-sm', onclick: () => setChildren(mintedEl) }, 'I have copied it'),
            ),
          );
          await load();
        } catch (err) {
          if (err instanceof ApiError && err.status === 400) {
            formError.textContent = err.message;
            formError.hidden = false;
          } else showError('Could not mint the key', err);
        } finally {
          mintButton.disabled = false;
        }
      },
    },
    h(
      'fieldset',
      { class: 'api-key-scopes' },
      h('legend', { class: 'small' }, 'Scopes'),
      boxes.map(({ label }) => label),
    ),
    h('div', { class: 'form-line' }, h('label', { for: 'api-key-name' }, 'Name'), nameInput, mintButton),
    formError,
  );

  const root = h(
    'section',
    { class: 'card pad api-keys-card', 'aria-label': 'Restricted API keys' },
    h('div', { class: 'cred-head' }, titleEl),
    h(
      'p',
      { class: 'muted small' },
      'Further sk_test_ keys of this account, each limited to the scopes you choose: a call outside them is 403 forbidden naming the missing scope, so you can test your 403 handling. A revoked key is 401.',
    ),
    listEl,
    mintedEl,
    form,
  );

  return {
    root,
    update() {
      const account = ctx.account();
      titleEl.textContent = account ? `Restricted API keys · ${account.name}` : 'Restricted API keys';
      if (loadedFor !== accountId()) {
        setChildren(mintedEl);
        confirming = null;
        void load();
      }
    },
  };
}
