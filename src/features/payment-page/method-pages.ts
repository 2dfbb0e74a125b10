/** The pages of the methods that hand the customer elsewhere: QR (PromptPay, Pix) and wallet or banking app. */
import type { Context } from 'hono';
import { html } from 'hono/html';
import { qrPayloadFor } from '../payment-methods/index.js';
import { toMajorUnits } from '../../core/domain/money.js';
import { type PaymentChannel } from '../payment-methods/index.js';
import type { AccountIdentity as AccountRow } from '../../core/auth/account.js';
import type { Transaction as TransactionRow } from '../transactions/index.js';
import type { AppEnv } from '../../core/http/env.js';
import { send, amountBlock, facts, header, cancelForm, outcomeHelp } from './page.js';

/** The QR image of a payload: an SVG data URL (dark modules on white, whatever the theme). */
export async function qrImage(payload: string): Promise<string> {
  // Loaded on first use: qrcode costs a few hundred ms at start-up.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(payload, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

export async function qrPage(c: Context<AppEnv>, tx: TransactionRow, account: AccountRow, channel: PaymentChannel): Promise<Response> {
  const payload = qrPayloadFor({
    id: tx.id,
    amount: tx.amount,
    currency: tx.currency,
    channelCode: channel.code,
    merchantName: account.name,
  });
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

export function handOffPage(
  c: Context<AppEnv>,
  tx: TransactionRow,
  account: AccountRow,
  channel: PaymentChannel,
): Response | Promise<Response> {
  const kind = channel.type === 'mobile_banking' ? 'banking app' : 'wallet app';
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

export function appPage(
  c: Context<AppEnv>,
  tx: TransactionRow,
  account: AccountRow,
  channel: PaymentChannel,
): Response | Promise<Response> {
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
