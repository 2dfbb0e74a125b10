/** The card form: its fields, the test-card hint, the checks, and the page. */
import type { Context } from 'hono';
import { html } from 'hono/html';
import { cardBrand, isValidExpiry, luhnValid, securityCodeLength } from '../payment-methods/index.js';
import { toMajorUnits } from '../../core/domain/money.js';
import { type PaymentChannel } from '../payment-methods/index.js';
import type { AccountIdentity as AccountRow } from '../../core/auth/account.js';
import type { Transaction as TransactionRow } from '../transactions/index.js';
import type { AppEnv } from '../../core/http/env.js';
import type { ScenarioRules } from './ports.js';
import { Html, PageStatus, send, facts, header, cancelForm, outcomeHelp } from './page.js';

/** What the customer typed into the card form (the security code is never echoed back). */
export interface CardForm {
  number: string;
  expiry: string;
  security_code: string;
  holder_name: string;
}

export type CardErrors = Partial<Record<keyof CardForm, string>>;

export const SCHEME_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** The test cards of the loaded scenarios (rules matching on a card number), for the hint. */
export function testCards(scenarios: ScenarioRules): Array<{ number: string; description: string }> {
  return scenarios
    .describe()
    .flatMap((scenario) => scenario.rules)
    .filter((rule) => rule.match.card_number !== undefined && rule.match.applies_to !== 'subscription')
    .map((rule) => ({
      number: rule.match.card_number!,
      description: (rule.description ?? rule.name).replace(/^Card [\d ]+(\([^)]*\))?:\s*/, '$1 ').trim(),
    }));
}

export function field(name: keyof CardForm, label: string, errors: CardErrors, input: Html): Html {
  const error = errors[name];
  return html`<div class="pay-field${error ? ' pay-field-error' : ''}">
<label for="${name}">${label}</label>
${input}
${error ? html`<p class="pay-field-message" id="${name}-error">${error}</p>` : ''}
</div>`;
}

/**
 * The card form's alert and fields, posting to `action` (the payment page and the trial's
 * save-card page): the caller adds its submit button and closes the form.
 */
export function cardFormFields(action: string, form: Omit<CardForm, 'security_code'>, errors: CardErrors): Html {
  const invalid = (name: keyof CardForm) => (errors[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : '');
  return html`${Object.keys(errors).length > 0 ? html`<p class="pay-alert" role="alert">Check the card details below.</p>` : ''}
<form method="post" action="${action}" class="pay-form pay-card-form">
${field('number', 'Card number', errors, html`<input class="input mono" id="number" name="number" inputmode="numeric" autocomplete="cc-number" required maxlength="23" placeholder="4242 4242 4242 4242" value="${form.number}"${invalid('number')}>`)}
<div class="pay-field-row">
${field('expiry', 'Expiry (MM/YY)', errors, html`<input class="input mono" id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" required maxlength="7" placeholder="MM/YY" value="${form.expiry}"${invalid('expiry')}>`)}
${field('security_code', 'Security code', errors, html`<input class="input mono" id="security_code" name="security_code" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" placeholder="123" value=""${invalid('security_code')}>`)}
</div>
${field('holder_name', 'Name on card', errors, html`<input class="input" id="holder_name" name="holder_name" autocomplete="cc-name" maxlength="100" placeholder="Jane Doe" value="${form.holder_name}"${invalid('holder_name')}>`)}`;
}

export function cardPage(
  c: Context<AppEnv>,
  scenarios: ScenarioRules,
  tx: TransactionRow,
  account: AccountRow,
  channel: PaymentChannel,
  form: Omit<CardForm, 'security_code'> = { number: '', expiry: '', holder_name: '' },
  errors: CardErrors = {},
  status: PageStatus = 200,
): Response | Promise<Response> {
  const cards = testCards(scenarios);
  return send(
    c,
    status,
    `Pay ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}`,
    html`${header(tx, account, channel)}
${cardFormFields(`/pay/${tx.id}/pay`, form, errors)}
<button type="submit" class="btn btn-primary btn-block btn-lg">Pay ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}</button>
</form>
${cancelForm(tx)}
${
  cards.length > 0
    ? html`<details class="pay-test-cards"><summary>Test cards</summary>
<p>Any future expiry and a ${securityCodeLength('visa')}-digit code (4 for American Express). An expiry before this month is declined; a valid card no rule matches is approved.</p>
<ul>${cards.map((card) => html`<li><span class="mono">${card.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</span> ${card.description}</li>`)}</ul>
</details>`
    : ''
}
${facts(tx, account)}
${outcomeHelp(tx, `Pay ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}`, 'Cancel')}`,
  );
}

/** Reads a form body; anything that is not a form gives empty fields. */
export async function readForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  try {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** The card form's fields normalised (spaces and dashes out of the number; "MMYY" → "MM/YY"). */
export function cardForm(body: Record<string, string>): CardForm {
  const expiry = (body.expiry ?? '').replace(/\s/g, '');
  return {
    number: (body.number ?? '').replace(/[\s-]/g, ''),
    expiry: /^\d{4}$/.test(expiry) ? `${expiry.slice(0, 2)}/${expiry.slice(2)}` : expiry,
    security_code: (body.security_code ?? '').trim(),
    holder_name: (body.holder_name ?? '').trim().slice(0, 100),
  };
}

/** What is wrong with a card form (empty when it is a well-formed card of a known scheme). */
export function cardFormErrors(form: CardForm): CardErrors {
  const errors: CardErrors = {};
  const brand = cardBrand(form.number);
  if (!luhnValid(form.number)) errors.number = 'Enter a valid card number (12 to 19 digits that pass the Luhn check).';
  else if (brand === 'unknown') errors.number = `The sandbox takes ${Object.values(SCHEME_NAMES).join(', ')} cards.`;
  if (!isValidExpiry(form.expiry)) errors.expiry = 'Enter the expiry as MM/YY, e.g. 12/30.';
  const length = securityCodeLength(brand);
  if (!new RegExp(`^\\d{${length}}$`).test(form.security_code)) {
    errors.security_code = `Enter the ${length}-digit security code${brand === 'amex' ? ' (American Express: 4 digits, on the front)' : ''}.`;
  }
  return errors;
}
