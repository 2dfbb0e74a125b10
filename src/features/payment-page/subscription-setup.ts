/**
 * The payment page of a trial subscription, the
 * subscription's `payment_url_link` from its creation: it collects the payment method
 * WITHOUT charging. A card subscription shows the card form ("Save card"); a QR, wallet or
 * banking-app channel an authorisation of recurring payments. Completing it puts the method
 * on file (the domain's `registerPaymentMethod`); the first charge is made when the trial
 * ends, and declined (`failed`) when the customer never completed the page.
 *
 * It lives at `/pay/{subscription_id}` beside the payment pages of transactions (the two kinds
 * of id are distinct UUIDs): `GET`, `POST .../pay` (saves; 303 to `payment_method.redirect_url`)
 * and `POST .../cancel` (leaves without saving; 303 to the same URL). After the trial, and
 * once saved, the page says so.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import { isoTimestamp } from '../../core/clock/clock.js';
import type { AccountIdentity as AccountRow } from '../../core/auth/account.js';
import type { Subscription } from '../subscriptions/index.js';
import { SandboxError } from '../../core/domain/errors.js';
import { toMajorUnits } from '../../core/domain/money.js';
import { paymentChannel, type PaymentChannel } from '../payment-methods/index.js';
import { subscriptionCalendar } from '../subscriptions/index.js';
import { collectsMethodDuringTrial } from '../subscriptions/index.js';
import type { AppEnv } from '../../core/http/env.js';
import type { PaymentPageDeps } from './ports.js';
import { cardForm, cardFormErrors, cardFormFields, readForm, type CardErrors, type CardForm } from './card-form.js';
import { CARD_CHANNEL, methodLine, safeUrl, send, type Html, type PageStatus } from './page.js';

type Found = { sub: Subscription; account: AccountRow; channel: PaymentChannel };

/** What the trial's page reads and calls. */
export type TrialPageDeps = Pick<PaymentPageDeps, 'subscriptions' | 'accounts' | 'trials'>;

/** The trial subscription with this id, or null. */
function lookUp(deps: TrialPageDeps, id: string): Found | null {
  const sub = deps.subscriptions.byIdAnyAccount(id);
  if (!sub) return null;
  const account = deps.accounts.byId(sub.account_id)!;
  if (!collectsMethodDuringTrial(account.mode, sub)) return null;
  const code = sub.request.payment_method.payment_channel_code;
  return { sub, account, channel: (code !== undefined ? paymentChannel(code) : undefined) ?? CARD_CHANNEL };
}

const backTo = (sub: Subscription): string | null => safeUrl(sub.request.payment_method.redirect_url ?? null);

/** Merchant, plan, the first charge's amount and date, and the method: the top of every page. */
function header(sub: Subscription, account: AccountRow, channel: PaymentChannel): Html {
  const { request } = sub;
  const trialEnd = subscriptionCalendar(sub).trialEnd!;
  return html`<p class="pay-merchant">${account.name}</p>
<p class="pay-amount"><span class="pay-amount-value">${toMajorUnits(0, request.currency)}</span> <span class="pay-amount-currency">${request.currency}</span></p>
<p class="pay-description">Due today. ${request.plan.name}: free trial until ${isoTimestamp(trialEnd).slice(0, 10)}, then ${toMajorUnits(request.amount, request.currency)} ${request.currency} for the first period.</p>
${methodLine(channel)}`;
}

function facts(sub: Subscription, account: AccountRow): Html {
  const customer = sub.request.customer;
  const who = [[customer.first_name, customer.last_name].filter(Boolean).join(' '), customer.email_address].filter(Boolean).join(' · ');
  return html`<dl class="pay-facts">
<div><dt>Reference</dt><dd class="mono">${sub.external_identifier}</dd></div>
${who ? html`<div><dt>Customer</dt><dd>${who}</dd></div>` : ''}
<div><dt>Merchant account</dt><dd class="mono">${account.id}</dd></div>
<div><dt>Subscription</dt><dd class="mono">${sub.id}</dd></div>
</dl>`;
}

function help(sub: Subscription, action: string): Html {
  const back = backTo(sub);
  const trialEnd = isoTimestamp(subscriptionCalendar(sub).trialEnd!);
  return html`<p class="pay-help"><strong>${action}</strong> puts the payment method on file and charges nothing now${back ? html`; both buttons return to <span class="mono">${back}</span>` : ''}.
When the trial ends (${trialEnd}, sandbox clock) the first period is charged with it; if this page was not completed by then, that charge fails and the subscription is <span class="badge badge-danger">failed</span>.</p>`;
}

const cancelButton = (sub: Subscription): Html => html`<form method="post" action="/pay/${sub.id}/cancel" class="pay-form">
<button type="submit" class="btn btn-block btn-lg btn-secondary">Cancel</button>
</form>`;

function setupPage(
  c: Context<AppEnv>,
  found: Found,
  form: Omit<CardForm, 'security_code'> = { number: '', expiry: '', holder_name: '' },
  errors: CardErrors = {},
  status: PageStatus = 200,
): Response | Promise<Response> {
  const { sub, account, channel } = found;
  if (channel.type !== 'card') {
    return send(
      c,
      status,
      `Authorise ${channel.name} for ${sub.request.plan.name}`,
      html`${header(sub, account, channel)}
<h1 class="pay-title">Authorise recurring payments with ${channel.name}</h1>
<p class="pay-lead">Nothing is charged today. ${account.name} will charge ${channel.name} when the trial ends, and each period after.</p>
<form method="post" action="/pay/${sub.id}/pay" class="pay-form">
<button type="submit" class="btn btn-primary btn-block btn-lg">Authorise</button>
</form>
${cancelButton(sub)}
${facts(sub, account)}
${help(sub, 'Authorise')}`,
    );
  }
  return send(
    c,
    status,
    `Save a card for ${sub.request.plan.name}`,
    html`${header(sub, account, channel)}
<h1 class="pay-title">Save a card for your subscription</h1>
<p class="pay-lead">You will not be charged now. The card is charged when the trial ends.</p>
${cardFormFields(`/pay/${sub.id}/pay`, form, errors)}
<button type="submit" class="btn btn-primary btn-block btn-lg">Save card</button>
</form>
${cancelButton(sub)}
${facts(sub, account)}
${help(sub, 'Save card')}`,
  );
}

/** The page once there is nothing left to do on it: registered, or the trial is over. */
function donePage(c: Context<AppEnv>, found: Found, status: PageStatus): Response | Promise<Response> {
  const { sub, account, channel } = found;
  const card = sub.state.payment_method_on_file.card;
  const registered = (sub.state.payment_method_registered_at ?? null) !== null;
  const back = backTo(sub);
  const title =
    sub.state.period >= 0 ? 'The trial has ended' : sub.status === 'cancelled' ? 'This subscription is cancelled' : 'Payment method saved';
  return send(
    c,
    status,
    title,
    html`${header(sub, account, channel)}
<h1 class="pay-title">${title} <span class="badge badge-${sub.status === 'active' ? 'ok' : 'danger'}">${sub.status}</span></h1>
<p class="pay-lead">${
      registered
        ? card
          ? html`Card ending <span class="mono">${card.last4}</span> (expires <span class="mono">${card.expiration_date}</span>) is on file.`
          : html`${channel.name} is authorised for recurring payments.`
        : 'No payment method was given on this page.'
    }</p>
${facts(sub, account)}
${back ? html`<p><a class="btn btn-block" href="${back}">Return to the merchant</a></p>` : ''}`,
  );
}

/** Whether the page still takes a method: active or past_due, trial not over, nothing registered yet. */
const open = (sub: Subscription): boolean =>
  (sub.status === 'active' || sub.status === 'past_due') &&
  sub.state.period < 0 &&
  (sub.state.payment_method_registered_at ?? null) === null;

/**
 * `GET /pay/{id}` for a trial subscription's id: its page, or null when `id` is not one (the
 * caller then answers for a transaction). Subscription and transaction ids are distinct UUIDs.
 */
export function trialPage(c: Context<AppEnv>, deps: TrialPageDeps, id: string): Response | Promise<Response> | null {
  const found = lookUp(deps, id);
  if (found === null) return null;
  return open(found.sub) ? setupPage(c, found) : donePage(c, found, 200);
}

/** `POST /pay/{id}/pay` for a trial subscription: saves the card or the authorisation, 303 to `redirect_url`. */
export async function submitTrialPage(c: Context<AppEnv>, deps: TrialPageDeps, id: string): Promise<Response | null> {
  const found = lookUp(deps, id);
  if (found === null) return null;
  if (!open(found.sub)) return donePage(c, found, 409);
  let saved: Subscription;
  if (found.channel.type === 'card') {
    const form = cardForm(await readForm(c));
    const errors = cardFormErrors(form);
    if (Object.keys(errors).length > 0) return setupPage(c, found, form, errors, 400);
    try {
      const card = { number: form.number, expiration_date: form.expiry, ...(form.holder_name ? { holder_name: form.holder_name } : {}) };
      saved = deps.trials.registerPaymentMethod(id, { card });
    } catch (err) {
      if (!(err instanceof SandboxError) || err.status !== 400) throw err;
      return setupPage(c, found, form, { expiry: 'This card has expired: enter a card valid this month or later.' }, 400);
    }
  } else {
    saved = deps.trials.registerPaymentMethod(id, {});
  }
  const back = backTo(saved);
  return back ? c.redirect(back, 303) : donePage(c, { ...found, sub: saved }, 200);
}

/** `POST /pay/{id}/cancel` for a trial subscription: leaves without giving a method (nothing changes), 303 to `redirect_url`. */
export function leaveTrialPage(c: Context<AppEnv>, deps: TrialPageDeps, id: string): Response | Promise<Response> | null {
  const found = lookUp(deps, id);
  if (found === null) return null;
  const back = backTo(found.sub);
  return back ? c.redirect(back, 303) : open(found.sub) ? setupPage(c, found) : donePage(c, found, 200);
}
