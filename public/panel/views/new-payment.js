/**
 * The "New payment" form above the transactions: amount, currency and a test value from the
 * loaded scenarios (a magic card in direct mode, a magic customer e-mail in checkout mode, or
 * one that matches no rule, so the payment waits to be settled or failed here). The payment is
 * created for the selected account by the control API's fixtures route (`POST
 * /_sandbox/fixtures`), with the body a merchant would send to `POST /v4/transactions` and
 * through the same validation and services; panel traffic is not the merchant's, so it stays
 * out of the go-live report. The new payment appears in the list at once.
 */
import { h } from '../dom.js';
import { parseMajor } from '../format.js';

/** @import { PanelContext } from '../actions.js' */
/** @import { ScenarioSummary } from '../types.js' */

/** One choice of the form's test value: what the body carries and what the sandbox does with it. @typedef {{ value: string, label: string }} Choice */

/** The card that matches no rule of the default scenario: the payment stays PENDING. */
export const WAITING_CARD = '4111111111111111';
/** The customer e-mail that matches no rule: the payment waits for the customer on the payment page. */
export const WAITING_EMAIL = 'jane@example.com';

/** A card number in groups of four. @param {string} number */
const grouped = (number) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The test values the form offers for an account's mode: first the one that waits, then each
 * rule of the loaded scenarios that matches on its own by card number (direct) or customer
 * e-mail (checkout), in the order the rules are tried, with the rule's description.
 * @param {'direct' | 'checkout'} mode
 * @param {readonly ScenarioSummary[] | null} scenarios
 * @returns {Choice[]}
 */
export function testValues(mode, scenarios) {
  /** @type {Choice[]} */
  const choices =
    mode === 'direct'
      ? [{ value: WAITING_CARD, label: `${grouped(WAITING_CARD)}: no rule, stays PENDING (settle or fail it here)` }]
      : [{ value: WAITING_EMAIL, label: `${WAITING_EMAIL}: no rule, waits for the customer on the payment page` }];
  const seen = new Set(choices.map((c) => c.value));
  for (const scenario of scenarios ?? []) {
    for (const rule of scenario.rules) {
      const match = /** @type {Record<string, unknown>} */ (rule.match);
      const keys = Object.keys(match).filter((k) => k !== 'applies_to');
      if (keys.length !== 1 || match.applies_to === 'subscription') continue;
      const card = typeof match.card_number === 'string' ? match.card_number : undefined;
      const email = typeof match.customer_email === 'string' ? match.customer_email.replace(/^\*/, 'anna') : undefined;
      const value = mode === 'direct' ? card : email;
      if (value === undefined || seen.has(value) || value.includes('*')) continue;
      seen.add(value);
      const what = (rule.description ?? rule.name).replace(/^[^:]*:\s*/, '');
      choices.push({ value, label: `${mode === 'direct' ? grouped(value) : value}: ${what}` });
    }
  }
  return choices;
}

/**
 * The body of `POST /v4/transactions` for the account's mode, as a merchant's code would send
 * it: a card with browser details in direct mode; the customer and where the payment page
 * returns them in checkout mode.
 * @param {'direct' | 'checkout'} mode
 * @param {{ amount: number, currency: string, value: string }} input amount in minor units; the chosen test value
 * @returns {Record<string, unknown>}
 */
export function paymentBody(mode, { amount, currency, value }) {
  const body = { amount, currency, description: 'Created in the panel' };
  return mode === 'direct'
    ? {
        ...body,
        payment_method: { type: 'card', number: value, expiration_date: '12/30', security_code: '123' },
        browser_info: { user_agent: navigatorAgent(), language: 'en-US', javascript_enabled: true },
      }
    : { ...body, customer: { email: value, name: 'Panel Customer' }, return_url: 'http://127.0.0.1:3000/thanks' };
}

/** The browser's user agent, when there is a browser. */
const navigatorAgent = () => (typeof navigator === 'undefined' ? 'panel' : navigator.userAgent);

/** @param {PanelContext} ctx the panel's state and actions */
export function newPaymentForm(ctx) {
  const amount = h('input', {
    id: 'new-payment-amount',
    name: 'amount',
    class: 'input',
    inputmode: 'decimal',
    required: true,
    value: '42.00',
    autocomplete: 'off',
  });
  const currency = h('input', {
    id: 'new-payment-currency',
    name: 'currency',
    class: 'input mono',
    required: true,
    value: 'USD',
    maxlength: '3',
    pattern: '[A-Za-z]{3}',
    autocomplete: 'off',
  });
  const value = h('select', { id: 'new-payment-value', name: 'value', class: 'input' });
  const valueLabel = h('label', { for: 'new-payment-value' }, 'Card');
  const button = h('button', { type: 'submit', class: 'btn btn-sm btn-primary' }, 'Create payment');
  const message = h('p', { class: 'new-payment-message small', 'aria-live': 'polite' });
  let shown = '';

  const form = h(
    'form',
    {
      class: 'card pad new-payment',
      'aria-labelledby': 'new-payment-title',
      /** @param {Event} event */
      onsubmit: async (event) => {
        event.preventDefault();
        const account = ctx.account();
        if (!account) return;
        const code = /** @type {HTMLInputElement} */ (currency).value.trim().toUpperCase();
        const parsed = parseMajor(/** @type {HTMLInputElement} */ (amount).value, code);
        if ('error' in parsed) {
          message.className = 'new-payment-message small form-error';
          message.textContent = parsed.error ?? 'Type an amount';
          return;
        }
        const body = paymentBody(account.mode, {
          amount: parsed.minor,
          currency: code,
          value: /** @type {HTMLSelectElement} */ (value).value,
        });
        button.setAttribute('disabled', '');
        message.className = 'new-payment-message small muted';
        message.textContent = 'Creating…';
        const result = await ctx.createPayment(account.account_id, body);
        button.removeAttribute('disabled');
        message.className = `new-payment-message small ${'error' in result ? 'form-error' : 'ok-text'}`;
        message.textContent = 'error' in result ? result.error : `Created ${result.transaction.id}: ${result.transaction.status}.`;
      },
    },
    h('h2', { class: 'card-title', id: 'new-payment-title' }, 'New payment'),
    h(
      'div',
      { class: 'new-payment-fields' },
      h('div', { class: 'field' }, h('label', { for: 'new-payment-amount' }, 'Amount'), amount),
      h('div', { class: 'field field-currency' }, h('label', { for: 'new-payment-currency' }, 'Currency'), currency),
      h('div', { class: 'field field-value' }, valueLabel, value),
      button,
    ),
    message,
  );

  return {
    root: form,
    /** Offers the test values of the selected account's mode and the loaded scenarios. */
    update() {
      const account = ctx.account();
      form.hidden = !account;
      if (!account) return;
      const choices = testValues(account.mode, ctx.state.scenarios.items);
      const signature = JSON.stringify([account.mode, choices]);
      if (signature === shown) return;
      shown = signature;
      valueLabel.textContent = account.mode === 'direct' ? 'Card (magic values)' : 'Customer e-mail (magic values)';
      const selected = /** @type {HTMLSelectElement} */ (value).value;
      value.replaceChildren(...choices.map((c) => h('option', { value: c.value, selected: c.value === selected || undefined }, c.label)));
    },
  };
}
