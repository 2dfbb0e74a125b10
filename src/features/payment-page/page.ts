/** The payment page's frame: layout, headers, the blocks every page shows, and where the customer is sent back to. */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { toMajorUnits } from '../../core/domain/money.js';
import { groupOf, paymentChannel, paymentLinkExpiresAt, type PaymentChannel } from '../payment-methods/index.js';
import type { AccountIdentity as AccountRow } from '../../core/auth/account.js';
import type { Transaction as TransactionRow } from '../transactions/index.js';
import type { AppEnv } from '../../core/http/env.js';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;
export type PageStatus = 200 | 400 | 404 | 409 | 410;

/** The page's HTML: no script at all, styles from the package only, never inside a frame (a click on Pay in another site's frame would settle the payment). */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export const CARD_CHANNEL = paymentChannel('CARD')!;

export function layout(title: string, body: Html): Html {
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

export function send(c: Context<AppEnv>, status: PageStatus, title: string, body: Html): Response | Promise<Response> {
  return c.html(layout(title, body), status, SECURITY_HEADERS);
}

/** Only http(s) URLs are ever linked or redirected to (the API validates them already). */
export function safeUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export const returnTarget = (tx: TransactionRow): string | null => safeUrl(tx.return_url);
export const cancelTarget = (tx: TransactionRow): string | null => safeUrl(tx.cancel_url) ?? safeUrl(tx.return_url);

/** The channel a transaction is paid with: its stored `payment_channel_code`, else a card. */
export function channelOf(tx: TransactionRow): PaymentChannel {
  const stored = tx.payment_method;
  if (stored === null) return CARD_CHANNEL;
  return (stored.payment_channel_code !== undefined ? paymentChannel(stored.payment_channel_code) : undefined) ?? CARD_CHANNEL;
}

export function amountBlock(tx: TransactionRow): Html {
  return html`<p class="pay-amount"><span class="pay-amount-value">${toMajorUnits(tx.amount, tx.currency)}</span> <span class="pay-amount-currency">${tx.currency}</span></p>`;
}

export function methodLine(channel: PaymentChannel): Html {
  const group = groupOf(channel.code);
  return html`<p class="pay-method"><span class="pay-method-icon pay-method-${channel.type}" aria-hidden="true"></span><span><strong>${channel.name}</strong>${group ? html` <span class="pay-method-group">${group.name}</span>` : ''}</span></p>`;
}

export function facts(tx: TransactionRow, account: AccountRow): Html {
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
export function header(tx: TransactionRow, account: AccountRow, channel: PaymentChannel): Html {
  return html`<p class="pay-merchant">${account.name}</p>
${amountBlock(tx)}
${tx.description ? html`<p class="pay-description">${tx.description}</p>` : ''}
${methodLine(channel)}`;
}

export function cancelForm(tx: TransactionRow, label = 'Cancel'): Html {
  return html`<form method="post" action="/pay/${tx.id}/cancel" class="pay-form">
<button type="submit" class="btn btn-block btn-lg btn-secondary">${label}</button>
</form>`;
}

export function outcomeHelp(tx: TransactionRow, pay: string, cancel: string): Html {
  const payTo = returnTarget(tx);
  const cancelTo = cancelTarget(tx);
  return html`<p class="pay-help"><strong>${pay}</strong> sets the transaction's outcome${payTo ? html` and returns to <span class="mono">${payTo}</span>` : ''}.
<strong>${cancel}</strong> sets it FAILED${cancelTo ? html` and returns to <span class="mono">${cancelTo}</span>` : ''}.
Either sends the payment webhook. This link expires at ${new Date(paymentLinkExpiresAt(tx.created_at)).toISOString()} (sandbox clock).</p>`;
}
