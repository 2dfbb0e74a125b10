/** The pages of a payment that cannot be acted on: unknown, finished, expired, processing. */
import type { Context } from 'hono';
import { html } from 'hono/html';
import { paymentLinkExpiresAt } from '../payment-methods/index.js';
import type { AccountIdentity as AccountRow } from '../../core/auth/account.js';
import type { Transaction as TransactionRow } from '../transactions/index.js';
import type { AppEnv } from '../../core/http/env.js';
import { PageStatus, send, returnTarget, cancelTarget, amountBlock, facts } from './page.js';

export function notFoundPage(c: Context<AppEnv>, id: string, reason: string): Response | Promise<Response> {
  return send(
    c,
    404,
    'Payment not found',
    html`<h1 class="pay-title">Payment not found</h1>
<p class="pay-lead">${reason}</p>
<p class="pay-id mono">${id}</p>`,
  );
}

export function finishedPage(
  c: Context<AppEnv>,
  tx: TransactionRow,
  account: AccountRow,
  status: PageStatus,
): Response | Promise<Response> {
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

export function expiredPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, status: PageStatus): Response | Promise<Response> {
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

export function processingPage(
  c: Context<AppEnv>,
  tx: TransactionRow,
  account: AccountRow,
  status: PageStatus,
): Response | Promise<Response> {
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
