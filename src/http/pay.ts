/**
 * The hosted payment page (contract: "Payment methods and the customer's steps"), rendered
 * on the server as plain HTML that works without script. `GET /pay/{id}` acts out the
 * transaction's payment method, read from its stored `payment_channel_code` (none: a card):
 *
 * - **card** (`CARD`, and every checkout payment without a channel): a form for number,
 *   expiry, security code and holder. The card is checked (Luhn, a known scheme, MM/YY, 4
 *   digits for Amex and 3 otherwise); an expiry before the sandbox clock's month is a
 *   decline (FAILED). Otherwise the scenario engine's rules decide, as if the card had been
 *   sent to the API (magic card numbers, amounts, e-mails); a card no rule matches is
 *   approved (SUCCEEDED).
 * - **qr** (`PROMPTPAY`, `PIX`): the EMVCo payload (`domain/emvco`) as a QR image rendered
 *   here (SVG data URL, no script) and as text, with "I have scanned and paid" and Cancel.
 * - **wallet / banking_app**: a hand-off screen with "Open <App>", which leads to
 *   `GET /pay/{id}/app`, the app's approval screen (Approve or Decline).
 *
 * `POST /pay/{id}/pay` and `POST /pay/{id}/cancel` set the outcome through the domain's one
 * state machine (so the payment webhook is queued), then answer 303 to the merchant's
 * `return_url` (pay) or `cancel_url`, default `return_url` (cancel), exactly as sent. A
 * link 24 hours of sandbox clock after the payment's creation is expired: the page says so,
 * cannot be paid (410), and an expired payment still PENDING becomes FAILED with its webhook.
 *
 * A page exists for every payment of a checkout account and for direct-mode payments whose
 * channel needs the customer (QR, wallet, banking app); a direct-mode card payment has none.
 * An unknown id, and a transaction that already has its outcome, get a page that says so; a
 * POST to a finished one answers 409 and changes nothing. Every merchant string is escaped
 * by `hono/html`. Styles: `public/theme.css` (shared with the panel) and
 * `public/payment-page/pay.css` (this page only; not under /pay, which is this router's).
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { cardBrand, isCardExpired, isValidExpiry, luhnValid, securityCodeLength } from '../domain/card.js';
import { qrPayloadFor } from '../domain/emvco/payment-payload.js';
import { SandboxError } from '../domain/errors.js';
import { toMajorUnits } from '../domain/money.js';
import { groupOf, isPaymentLinkExpired, needsCustomerStep, paymentChannel, paymentLinkExpiresAt, type PaymentChannel } from '../domain/payment-methods.js';
import type { Sandbox } from '../sandbox.js';
import type { Account as AccountRow, Transaction as TransactionRow } from '../domain/entities.js';
import type { AppEnv } from './env.js';
import { pageOperation } from './openapi/document.js';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;
type PageStatus = 200 | 400 | 404 | 409 | 410;

/** The page's HTML: no script at all, styles from the package only. */
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const CARD_CHANNEL = paymentChannel('CARD')!;

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · payment-sandbox</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/theme.css">
<link rel="stylesheet" href="/payment-page/pay.css">
</head>
<body class="pay-body">
<div class="test-stripe" aria-hidden="true"></div>
<main class="pay-card">
<p class="pay-brand"><span class="brand-mark" aria-hidden="true"></span>payment-sandbox <span class="pill pill-test">Test mode</span></p>
${body}
</main>
<p class="pay-note">A sandbox payment page: no card is charged and no money moves.</p>
</body>
</html>`;
}

function send(c: Context<AppEnv>, status: PageStatus, title: string, body: Html): Response | Promise<Response> {
  return c.html(layout(title, body), status, SECURITY_HEADERS);
}

/** Only http(s) URLs are ever linked or redirected to (the API validates them already). */
function safeUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const returnTarget = (tx: TransactionRow): string | null => safeUrl(tx.return_url);
const cancelTarget = (tx: TransactionRow): string | null => safeUrl(tx.cancel_url) ?? safeUrl(tx.return_url);

/** The channel a transaction is paid with: its stored `payment_channel_code`, else a card. */
export function channelOf(tx: TransactionRow): PaymentChannel {
  const stored = tx.payment_method;
  if (stored === null) return CARD_CHANNEL;
  return (stored.payment_channel_code !== undefined ? paymentChannel(stored.payment_channel_code) : undefined) ?? CARD_CHANNEL;
}

function amountBlock(tx: TransactionRow): Html {
  return html`<p class="pay-amount"><span class="pay-amount-value">${toMajorUnits(tx.amount, tx.currency)}</span> <span class="pay-amount-currency">${tx.currency}</span></p>`;
}

function methodLine(channel: PaymentChannel): Html {
  const group = groupOf(channel.code);
  return html`<p class="pay-method"><span class="pay-method-icon pay-method-${channel.type}" aria-hidden="true"></span><span><strong>${channel.name}</strong>${group ? html` <span class="pay-method-group">${group.name}</span>` : ''}</span></p>`;
}

function facts(tx: TransactionRow, account: AccountRow): Html {
  const customer = tx.customer;
  const who = [customer?.name, customer?.email].filter((v): v is string => Boolean(v)).join(' · ');
  return html`<dl class="pay-facts">
${tx.external_identifier ? html`<div><dt>Reference</dt><dd class="mono">${tx.external_identifier}</dd></div>` : ''}
${who ? html`<div><dt>Customer</dt><dd>${who}</dd></div>` : ''}
<div><dt>Merchant account</dt><dd class="mono">${account.id}</dd></div>
<div><dt>Transaction</dt><dd class="mono">${tx.id}</dd></div>
</dl>`;
}

/** Merchant, amount, description and method: the top of every payable page. */
function header(tx: TransactionRow, account: AccountRow, channel: PaymentChannel): Html {
  return html`<p class="pay-merchant">${account.name}</p>
${amountBlock(tx)}
${tx.description ? html`<p class="pay-description">${tx.description}</p>` : ''}
${methodLine(channel)}`;
}

function cancelForm(tx: TransactionRow, label = 'Cancel'): Html {
  return html`<form method="post" action="/pay/${tx.id}/cancel" class="pay-form">
<button type="submit" class="btn btn-block btn-lg btn-secondary">${label}</button>
</form>`;
}

function outcomeHelp(tx: TransactionRow, pay: string, cancel: string): Html {
  const payTo = returnTarget(tx);
  const cancelTo = cancelTarget(tx);
  return html`<p class="pay-help"><strong>${pay}</strong> sets the transaction's outcome${payTo ? html` and returns to <span class="mono">${payTo}</span>` : ''}.
<strong>${cancel}</strong> sets it FAILED${cancelTo ? html` and returns to <span class="mono">${cancelTo}</span>` : ''}.
Either sends the payment webhook. This link expires at ${new Date(paymentLinkExpiresAt(tx.created_at)).toISOString()} (sandbox clock).</p>`;
}

function notFoundPage(c: Context<AppEnv>, id: string, reason: string): Response | Promise<Response> {
  return send(
    c,
    404,
    'Payment not found',
    html`<h1 class="pay-title">Payment not found</h1>
<p class="pay-lead">${reason}</p>
<p class="pay-id mono">${id}</p>`,
  );
}

function finishedPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, status: PageStatus): Response | Promise<Response> {
  const target = tx.status === 'SUCCEEDED' ? returnTarget(tx) : cancelTarget(tx);
  const tone = tx.status === 'SUCCEEDED' ? 'ok' : 'danger';
  return send(
    c,
    status,
    `This payment is already ${tx.status}`,
    html`<p class="pay-merchant">${account.name}</p>
${amountBlock(tx)}
<h1 class="pay-title">This payment is already <span class="badge badge-${tone}">${tx.status}</span></h1>
<p class="pay-lead">Its outcome is final, so it cannot be paid or cancelled again.</p>
${facts(tx, account)}
${target ? html`<p><a class="btn btn-block" href="${target}">Return to the merchant</a></p>` : ''}`,
  );
}

function expiredPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, status: PageStatus): Response | Promise<Response> {
  const target = cancelTarget(tx);
  return send(
    c,
    status,
    'This payment link has expired',
    html`<p class="pay-merchant">${account.name}</p>
${amountBlock(tx)}
<h1 class="pay-title">This payment link has expired</h1>
<p class="pay-lead">It was payable for 24 hours (sandbox clock) and expired at ${new Date(paymentLinkExpiresAt(tx.created_at)).toISOString()}. The payment is <span class="badge badge-danger">FAILED</span>; ask the merchant for a new link.</p>
${facts(tx, account)}
${target ? html`<p><a class="btn btn-block" href="${target}">Return to the merchant</a></p>` : ''}`,
  );
}

function processingPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, status: PageStatus): Response | Promise<Response> {
  const target = returnTarget(tx);
  return send(
    c,
    status,
    'Payment processing',
    html`<p class="pay-merchant">${account.name}</p>
${amountBlock(tx)}
<h1 class="pay-title">Payment processing <span class="badge badge-warn">PENDING</span></h1>
<p class="pay-lead">The sandbox has scheduled this payment's outcome on its clock (a scenario rule); it cannot be paid or cancelled meanwhile. The merchant receives the webhook when it is decided.</p>
${facts(tx, account)}
${target ? html`<p><a class="btn btn-block" href="${target}">Return to the merchant</a></p>` : ''}`,
  );
}

/** What the customer typed into the card form (the security code is never echoed back). */
interface CardForm {
  number: string;
  expiry: string;
  security_code: string;
  holder_name: string;
}

type CardErrors = Partial<Record<keyof CardForm, string>>;

const SCHEME_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** The test cards of the loaded scenarios (rules matching on a card number), for the hint. */
function testCards(sandbox: Sandbox): Array<{ number: string; description: string }> {
  return sandbox.scenarios
    .describe()
    .flatMap((scenario) => scenario.rules)
    .filter((rule) => rule.match.card_number !== undefined && rule.match.applies_to !== 'subscription')
    .map((rule) => ({ number: rule.match.card_number!, description: (rule.description ?? rule.name).replace(/^Card [\d ]+(\([^)]*\))?:\s*/, '$1 ').trim() }));
}

function field(name: keyof CardForm, label: string, errors: CardErrors, input: Html): Html {
  const error = errors[name];
  return html`<div class="pay-field${error ? ' pay-field-error' : ''}">
<label for="${name}">${label}</label>
${input}
${error ? html`<p class="pay-field-message" id="${name}-error">${error}</p>` : ''}
</div>`;
}

function cardPage(
  c: Context<AppEnv>,
  tx: TransactionRow,
  account: AccountRow,
  channel: PaymentChannel,
  form: Omit<CardForm, 'security_code'> = { number: '', expiry: '', holder_name: '' },
  errors: CardErrors = {},
  status: PageStatus = 200,
): Response | Promise<Response> {
  const invalid = (name: keyof CardForm) => (errors[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : '');
  const cards = testCards(c.get('sandbox'));
  return send(
    c,
    status,
    `Pay ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}`,
    html`${header(tx, account, channel)}
${Object.keys(errors).length > 0 ? html`<p class="pay-alert" role="alert">Check the card details below.</p>` : ''}
<form method="post" action="/pay/${tx.id}/pay" class="pay-form pay-card-form">
${field('number', 'Card number', errors, html`<input class="input mono" id="number" name="number" inputmode="numeric" autocomplete="cc-number" required maxlength="23" placeholder="4242 4242 4242 4242" value="${form.number}"${invalid('number')}>`)}
<div class="pay-field-row">
${field('expiry', 'Expiry (MM/YY)', errors, html`<input class="input mono" id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" required maxlength="7" placeholder="MM/YY" value="${form.expiry}"${invalid('expiry')}>`)}
${field('security_code', 'Security code', errors, html`<input class="input mono" id="security_code" name="security_code" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" placeholder="123" value=""${invalid('security_code')}>`)}
</div>
${field('holder_name', 'Name on card', errors, html`<input class="input" id="holder_name" name="holder_name" autocomplete="cc-name" maxlength="100" placeholder="Jane Doe" value="${form.holder_name}"${invalid('holder_name')}>`)}
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

/** The QR image of a payload: an SVG data URL (dark modules on white, whatever the theme). */
async function qrImage(payload: string): Promise<string> {
  // Loaded on first use: qrcode costs a few hundred ms at start-up.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

async function qrPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, channel: PaymentChannel): Promise<Response> {
  const payload = qrPayloadFor({ id: tx.id, amount: tx.amount, currency: tx.currency, channelCode: channel.code, merchantName: account.name });
  if (payload === null) {
    return send(
      c,
      400,
      'No QR code for this payment',
      html`${header(tx, account, channel)}
<h1 class="pay-title">No QR code for this payment</h1>
<p class="pay-lead">${channel.name} takes ${channel.currencies === 'any' ? 'any currency' : channel.currencies.join(', ')}, and this payment is in ${tx.currency}.</p>
${cancelForm(tx)}`,
    );
  }
  const image = await qrImage(payload);
  const scheme = channel.code === 'PIX' ? 'BR Code (Pix)' : 'Thai QR Code (PromptPay)';
  return send(
    c,
    200,
    `Pay ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency} with ${channel.name}`,
    html`${header(tx, account, channel)}
<h1 class="pay-title">Scan to pay with ${channel.name}</h1>
<p class="pay-lead">Open your banking app, scan the code and confirm ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}. In the sandbox nobody scans: press the button below to act it out.</p>
<figure class="pay-qr">
<img class="pay-qr-image" src="${image}" width="240" height="240" alt="${channel.name} QR code: ${scheme} payload for ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}">
<figcaption>${scheme}, EMVCo merchant-presented, with CRC</figcaption>
</figure>
<label class="pay-payload-label" for="qr-payload">Payload (copy and paste)</label>
<textarea class="input mono pay-payload" id="qr-payload" readonly rows="4">${payload}</textarea>
<form method="post" action="/pay/${tx.id}/pay" class="pay-form">
<button type="submit" class="btn btn-primary btn-block btn-lg">I have scanned and paid</button>
</form>
${cancelForm(tx)}
${facts(tx, account)}
${outcomeHelp(tx, 'I have scanned and paid', 'Cancel')}`,
  );
}

function handOffPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, channel: PaymentChannel): Response | Promise<Response> {
  const kind = channel.type === 'banking_app' ? 'banking app' : 'wallet app';
  return send(
    c,
    200,
    `Pay ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency} with ${channel.name}`,
    html`${header(tx, account, channel)}
<h1 class="pay-title">Continue in ${channel.name}</h1>
<p class="pay-lead">You will be handed to the ${channel.name} ${kind} to approve ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}. The sandbox shows that app's approval screen instead.</p>
<p><a class="btn btn-primary btn-block btn-lg" href="/pay/${tx.id}/app">Open ${channel.name}</a></p>
${cancelForm(tx)}
${facts(tx, account)}
${outcomeHelp(tx, 'Approve', 'Cancel or Decline')}`,
  );
}

function appPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, channel: PaymentChannel): Response | Promise<Response> {
  return send(
    c,
    200,
    `${channel.name}: approve ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}`,
    html`<section class="pay-app pay-app-${channel.type}" aria-label="${channel.name} (simulated)">
<p class="pay-app-bar"><span class="pay-method-icon pay-method-${channel.type}" aria-hidden="true"></span><strong>${channel.name}</strong> <span class="pay-app-sim">simulated app</span></p>
<h1 class="pay-title">Approve payment</h1>
<p class="pay-lead">to <strong>${account.name}</strong></p>
${amountBlock(tx)}
${tx.description ? html`<p class="pay-description">${tx.description}</p>` : ''}
<form method="post" action="/pay/${tx.id}/pay" class="pay-form">
<button type="submit" class="btn btn-primary btn-block btn-lg">Approve</button>
</form>
${cancelForm(tx, 'Decline')}
</section>
${facts(tx, account)}
${outcomeHelp(tx, 'Approve', 'Decline')}`,
  );
}

/** The transaction and its account when it has a payment page, else the reason it has none. */
function lookUp(c: Context<AppEnv>, id: string): { tx: TransactionRow; account: AccountRow; channel: PaymentChannel } | { reason: string } {
  const sandbox = c.get('sandbox');
  const tx = sandbox.stores.transactions.byIdAnyAccount(id);
  if (!tx) return { reason: 'There is no transaction with this id in the sandbox. The link may be mistyped, or the sandbox was reset or restarted with an in-memory database.' };
  const account = sandbox.stores.accounts.byId(tx.account_id)!;
  const channel = channelOf(tx);
  if (account.mode !== 'checkout' && !needsCustomerStep(channel.code)) {
    return { reason: 'This transaction belongs to a direct-integration account, which has no payment page: settle or fail it from the control panel or POST /_sandbox/transactions/{id}/settle.' };
  }
  return { tx, account, channel };
}

/** Whether a scenario step is waiting to decide this PENDING transaction on the sandbox clock. */
function hasScheduledOutcome(sandbox: Sandbox, tx: TransactionRow): boolean {
  return sandbox.stores.scheduledSteps.forResource(tx.id).some((step) => step.action.kind === 'outcome' && step.done === 'waiting');
}

/** Whether the payment failed because its link expired (by this page or by a sweep elsewhere). */
function expiredUnpaid(tx: TransactionRow): boolean {
  return tx.status === 'FAILED' && tx.resolved_at !== null && isPaymentLinkExpired(tx.created_at, tx.resolved_at);
}

/**
 * A PENDING payment whose link has expired becomes FAILED (webhook queued); answers the
 * current row. Losing a race with another outcome is fine: the row then says what won.
 */
function expireIfDue(sandbox: Sandbox, tx: TransactionRow): TransactionRow {
  if (tx.status !== 'PENDING' || !isPaymentLinkExpired(tx.created_at, sandbox.clock.nowMs())) return tx;
  try {
    return sandbox.transactions.resolve(tx.id, 'FAILED');
  } catch (err) {
    if (!(err instanceof SandboxError) || err.status !== 409) throw err;
    return sandbox.stores.transactions.byIdAnyAccount(tx.id)!;
  }
}

type Found = { tx: TransactionRow; account: AccountRow; channel: PaymentChannel };

/**
 * The page for a transaction that can no longer be acted on (expired, finished, or its
 * outcome scheduled), or null when it is payable. `post` answers with 410/409 statuses.
 */
function notPayable(c: Context<AppEnv>, found: Found, post: boolean): Response | Promise<Response> | null {
  const sandbox = c.get('sandbox');
  const tx = expireIfDue(sandbox, found.tx);
  if (expiredUnpaid(tx)) return expiredPage(c, tx, found.account, post ? 410 : 200);
  if (tx.status !== 'PENDING') return finishedPage(c, tx, found.account, post ? 409 : 200);
  if (hasScheduledOutcome(sandbox, tx)) return processingPage(c, tx, found.account, post ? 409 : 200);
  return null;
}

/** Reads a form body; anything that is not a form gives empty fields. */
async function readForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  try {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** The card form's fields normalised (spaces and dashes out of the number; "MMYY" → "MM/YY"). */
function cardForm(body: Record<string, string>): CardForm {
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

/** The payment page routes, mounted under /pay. */
export function paymentPageRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  // Each page is documented beside its handler (HTML, no validation hook: the pages answer bad input themselves).
  const idParameter = { name: 'id', in: 'path' as const, required: true, description: 'The transaction id', schema: { type: 'string' as const } };
  const page = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } });
  const redirect = (description: string) => ({ description, headers: { Location: { description: "The merchant's URL, as sent", schema: { type: 'string' as const } } } });

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/{id}',
    ...pageOperation,
    operationId: 'getPaymentPage',
    summary: "The hosted payment page of a transaction (the payment_url): the customer's step for its payment method",
    parameters: [idParameter],
    responses: { 200: page('Card form, QR code or app hand-off'), 404: page('No payment page for this id'), 409: page('The payment already has its outcome'), 410: page('The link has expired (24 hours of sandbox clock)') },
  });

  app.get('/:id', async (c) => {
    const id = c.req.param('id');
    const found = lookUp(c, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, found, false);
    if (blocked) return blocked;
    const { tx, account, channel } = found;
    switch (channel.type) {
      case 'card':
        return cardPage(c, tx, account, channel);
      case 'qr':
        return qrPage(c, tx, account, channel);
      case 'wallet':
      case 'banking_app':
        return handOffPage(c, tx, account, channel);
    }
  });

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/{id}/app',
    ...pageOperation,
    operationId: 'getPaymentAppPage',
    summary: "The wallet's or banking app's approval screen (Approve or Decline)",
    parameters: [idParameter],
    responses: { 200: page('The approval screen'), 303: { description: 'Not a wallet or banking-app payment: to its payment page' }, 404: page('No payment page for this id'), 409: page('The payment already has its outcome'), 410: page('The link has expired') },
  });
  app.get('/:id/app', (c) => {
    const id = c.req.param('id');
    const found = lookUp(c, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, found, false);
    if (blocked) return blocked;
    if (found.channel.type !== 'wallet' && found.channel.type !== 'banking_app') return c.redirect(`/pay/${id}`, 303);
    return appPage(c, found.tx, found.account, found.channel);
  });

  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/{id}/pay',
    ...pageOperation,
    operationId: 'submitPaymentPage',
    summary: 'Pay: sets the outcome (card: checked, then the scenario rules decide) and queues the payment webhook',
    parameters: [idParameter],
    request: {
      body: {
        required: false,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              description: 'The card form (card payments only)',
              properties: { number: { type: 'string' }, expiry: { type: 'string', description: 'MM/YY' }, security_code: { type: 'string' }, holder_name: { type: 'string' } },
            },
          },
        },
      },
    },
    responses: { 200: page('The outcome, when the transaction has no return_url'), 303: redirect('To the return_url'), 400: page('The card form with its errors'), 404: page('No payment page for this id'), 409: page('The payment already has its outcome'), 410: page('The link has expired') },
  });
  app.post('/:id/pay', async (c) => {
    const id = c.req.param('id');
    const found = lookUp(c, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, found, true);
    if (blocked) return blocked;
    const { tx, account, channel } = found;
    const sandbox = c.get('sandbox');
    try {
      if (channel.type === 'card') {
        const form = cardForm(await readForm(c));
        const errors = cardFormErrors(form);
        if (Object.keys(errors).length > 0) return cardPage(c, tx, account, channel, form, errors, 400);
        // An expired card is declined; otherwise the scenario rules decide, as for a card sent to the API.
        sandbox.transactions.payWithCard(tx.id, { number: form.number, expiration_date: form.expiry });
      } else {
        sandbox.transactions.resolve(id, 'SUCCEEDED');
      }
    } catch (err) {
      if (!(err instanceof SandboxError) || err.status !== 409) throw err;
      return finishedPage(c, sandbox.stores.transactions.byIdAnyAccount(id)!, account, 409);
    }
    const target = returnTarget(tx);
    if (target) return c.redirect(target, 303);
    const after = sandbox.stores.transactions.byIdAnyAccount(id)!;
    return after.status === 'PENDING' ? processingPage(c, after, account, 200) : finishedPage(c, after, account, 200);
  });

  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/{id}/cancel',
    ...pageOperation,
    operationId: 'cancelPaymentPage',
    summary: 'Cancel: the payment becomes FAILED and its webhook is queued',
    parameters: [idParameter],
    responses: { 200: page('The outcome, when the transaction has no cancel_url or return_url'), 303: redirect('To the cancel_url, else the return_url'), 404: page('No payment page for this id'), 409: page('The payment already has its outcome'), 410: page('The link has expired') },
  });
  app.post('/:id/cancel', (c) => {
    const id = c.req.param('id');
    const found = lookUp(c, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, found, true);
    if (blocked) return blocked;
    let resolved: TransactionRow;
    try {
      resolved = c.get('sandbox').transactions.resolve(id, 'FAILED');
    } catch (err) {
      if (!(err instanceof SandboxError) || err.status !== 409) throw err;
      return finishedPage(c, c.get('sandbox').stores.transactions.byIdAnyAccount(id)!, found.account, 409);
    }
    const target = cancelTarget(resolved);
    if (target) return c.redirect(target, 303);
    return finishedPage(c, resolved, found.account, 200);
  });

  return app;
}
