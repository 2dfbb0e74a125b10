/**
 * The checkout payment page (contract: Resources, checkout mode), rendered on the server as
 * plain HTML that works without script: `GET /pay/{id}` shows the merchant, the amount in
 * major units and the description with **Pay** and **Cancel** forms. `POST /pay/{id}/pay`
 * sets the outcome SUCCEEDED and `POST /pay/{id}/cancel` sets it FAILED, both through the
 * domain's one state machine, then answer 303 to the merchant's `return_url` (Pay) or
 * `cancel_url`, default `return_url` (Cancel). The URL is used exactly as the merchant sent
 * it: nothing is appended, so a merchant puts its own order reference in it.
 *
 * An unknown id, a transaction of a direct-mode account (which has no payment page) and a
 * transaction that already has its outcome each get a page that says so; a POST to a
 * finished one answers 409 and changes nothing. Every merchant string is escaped by
 * `hono/html`. The page shares `public/theme.css` with the control panel.
 */
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { SandboxError } from '../domain/errors.js';
import { toMajorUnits } from '../domain/money.js';
import type { Account as AccountRow, Transaction as TransactionRow } from '../domain/entities.js';
import type { AppEnv } from './env.js';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;
type PageStatus = 200 | 404 | 409;

/** The page's HTML: no script at all, styles from the package only. */
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · payment-sandbox</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/theme.css">
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

function amountBlock(tx: TransactionRow): Html {
  return html`<p class="pay-amount"><span class="pay-amount-value">${toMajorUnits(tx.amount, tx.currency)}</span> <span class="pay-amount-currency">${tx.currency}</span></p>`;
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

function paymentPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow): Response | Promise<Response> {
  const payTo = returnTarget(tx);
  const cancelTo = cancelTarget(tx);
  return send(
    c,
    200,
    `Pay ${toMajorUnits(tx.amount, tx.currency)} ${tx.currency}`,
    html`<p class="pay-merchant">${account.name}</p>
${amountBlock(tx)}
${tx.description ? html`<p class="pay-description">${tx.description}</p>` : ''}
${facts(tx, account)}
<form method="post" action="/pay/${tx.id}/pay" class="pay-form">
<button type="submit" class="btn btn-primary btn-block btn-lg">Pay</button>
</form>
<form method="post" action="/pay/${tx.id}/cancel" class="pay-form">
<button type="submit" class="btn btn-block btn-lg btn-secondary">Cancel</button>
</form>
<p class="pay-help"><strong>Pay</strong> sets the transaction SUCCEEDED${payTo ? html` and returns to <span class="mono">${payTo}</span>` : ''}.
<strong>Cancel</strong> sets it FAILED${cancelTo ? html` and returns to <span class="mono">${cancelTo}</span>` : ''}.
Either sends the payment webhook.</p>`,
  );
}

/** The transaction and its account when it has a payment page, else the reason it has none. */
function lookUp(c: Context<AppEnv>, id: string): { tx: TransactionRow; account: AccountRow } | { reason: string } {
  const sandbox = c.get('sandbox');
  const tx = sandbox.stores.transactions.byIdAnyAccount(id);
  if (!tx) return { reason: 'There is no transaction with this id in the sandbox. The link may be mistyped, or the sandbox was reset or restarted with an in-memory database.' };
  const account = sandbox.stores.accounts.byId(tx.account_id)!;
  if (account.mode !== 'checkout') {
    return { reason: 'This transaction belongs to a direct-integration account, which has no payment page: settle or fail it from the control panel or POST /_sandbox/transactions/{id}/settle.' };
  }
  return { tx, account };
}

/** The payment page routes, mounted under /pay. */
export function paymentPageRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/:id', (c) => {
    const id = c.req.param('id');
    const found = lookUp(c, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    if (found.tx.status !== 'PENDING') return finishedPage(c, found.tx, found.account, 200);
    return paymentPage(c, found.tx, found.account);
  });

  for (const [action, outcome] of [['pay', 'SUCCEEDED'], ['cancel', 'FAILED']] as const) {
    app.post(`/:id/${action}`, (c) => {
      const id = c.req.param('id');
      const found = lookUp(c, id);
      if ('reason' in found) return notFoundPage(c, id, found.reason);
      let resolved: TransactionRow;
      try {
        resolved = c.get('sandbox').transactions.resolve(id, outcome);
      } catch (err) {
        if (!(err instanceof SandboxError) || err.status !== 409) throw err;
        const current = c.get('sandbox').stores.transactions.byIdAnyAccount(id)!;
        return finishedPage(c, current, found.account, 409);
      }
      const target = outcome === 'SUCCEEDED' ? returnTarget(resolved) : cancelTarget(resolved);
      if (target) return c.redirect(target, 303);
      return finishedPage(c, resolved, found.account, 200);
    });
  }

  return app;
}
