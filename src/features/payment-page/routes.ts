/**
 * The hosted payment page, rendered
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
 * - **wallet / mobile_banking**: a hand-off screen with "Open <App>", which leads to
 *   `GET /pay/{id}/app`, the app's approval screen (Approve or Decline).
 *
 * `POST /pay/{id}/pay` and `POST /pay/{id}/cancel` set the outcome through the domain's one
 * state machine (so the payment webhook is queued), then answer 303 to the merchant's
 * `return_url` (pay) or `cancel_url`, default `return_url` (cancel), exactly as sent. A
 * link 24 hours of sandbox clock after the payment's creation is expired: the page says so,
 * cannot be paid (410); the domain (`expireLinkIfDue`) fails an expired payment still PENDING, with
 * its webhook, before the page answers.
 * The router gets its ports in `PaymentPageDeps` (`ports.ts`), never the sandbox.
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
import { awaitsCustomer, failedByExpiredLink } from '../payment-methods/index.js';
import { SandboxError } from '../../core/domain/errors.js';
import type { PaymentChannel } from '../payment-methods/index.js';
import type { AccountIdentity as AccountRow } from '../../core/auth/account.js';
import type { Transaction as TransactionRow } from '../transactions/index.js';
import type { AppEnv } from '../../core/http/env.js';
import { pageOperation } from '../../core/http/openapi/document.js';
import { lowerCaseUuid } from '../../core/http/schemas.js';
import type { PaymentPageDeps } from './ports.js';
import { returnTarget, cancelTarget, channelOf, SECURITY_HEADERS } from './page.js';
import { notFoundPage, finishedPage, expiredPage, processingPage } from './status-pages.js';
import { cardPage, readForm, cardForm, cardFormErrors } from './card-form.js';
import { qrPage, handOffPage, appPage } from './method-pages.js';
import { leaveTrialPage, submitTrialPage, trialPage } from './subscription-setup.js';

type Found = { tx: TransactionRow; account: AccountRow; channel: PaymentChannel };

/** The transaction and its account when it has a payment page, else the reason it has none. */
function lookUp(deps: PaymentPageDeps, id: string): Found | { reason: string } {
  const tx = deps.transactions.byIdAnyAccount(id);
  if (!tx)
    return {
      reason:
        'There is no transaction with this id in the sandbox. The link may be mistyped, or the sandbox was reset or restarted with an in-memory database.',
    };
  const account = deps.accounts.byId(tx.account_id)!;
  const channel = channelOf(tx);
  if (!awaitsCustomer(account.mode, channel.code)) {
    return {
      reason:
        'This transaction belongs to a direct-integration account, which has no payment page: settle or fail it from the control panel or POST /_sandbox/transactions/{id}/settle.',
    };
  }
  return { tx, account, channel };
}

/** Whether a scenario step is waiting to decide this PENDING transaction on the sandbox clock. */
function hasScheduledOutcome(deps: PaymentPageDeps, tx: TransactionRow): boolean {
  return deps.scheduledSteps.forResource(tx.id).some((step) => step.action.kind === 'outcome' && step.done === 'waiting');
}

/**
 * The page for a transaction that can no longer be acted on (expired, finished, or its
 * outcome scheduled), or null when it is payable. `post` answers with 410/409 statuses.
 * A link past its time is first failed by the domain (`expireLinkIfDue`).
 */
function notPayable(c: Context<AppEnv>, deps: PaymentPageDeps, found: Found, post: boolean): Response | Promise<Response> | null {
  const tx = deps.payments.expireLinkIfDue(found.tx.id);
  if (failedByExpiredLink(tx)) return expiredPage(c, tx, found.account, post ? 410 : 200);
  if (tx.status !== 'PENDING') return finishedPage(c, tx, found.account, post ? 409 : 200);
  if (hasScheduledOutcome(deps, tx)) return processingPage(c, tx, found.account, post ? 409 : 200);
  return null;
}

/** The payment page routes, mounted under /pay. */
export function paymentPageRoutes(deps: PaymentPageDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  // Every answer (pages, redirects, errors) may not be framed.
  app.use('*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', SECURITY_HEADERS['Content-Security-Policy']);
    c.header('X-Frame-Options', SECURITY_HEADERS['X-Frame-Options']);
  });
  // Each page is documented beside its handler (HTML, no validation hook: the pages answer bad input themselves).
  const idParameter = {
    name: 'id',
    in: 'path' as const,
    required: true,
    description: 'The transaction id (or a trial subscription id)',
    schema: { type: 'string' as const },
  };
  const page = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } });
  const redirect = (description: string) => ({
    description,
    headers: { Location: { description: "The merchant's URL, as sent", schema: { type: 'string' as const } } },
  });

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/{id}',
    ...pageOperation,
    operationId: 'getPaymentPage',
    summary: "The hosted payment page of a transaction (the payment_url): the customer's step for its payment method",
    description:
      "Also a trial subscription's payment_url_link (the id is then the subscription's): it collects the payment method without charging; the first charge, when the trial ends, uses it.",
    parameters: [idParameter],
    responses: {
      200: page('Card form, QR code or app hand-off'),
      404: page('No payment page for this id'),
      409: page('The payment already has its outcome'),
      410: page('The link has expired (24 hours of sandbox clock)'),
    },
  });

  app.get('/:id', async (c) => {
    const id = lowerCaseUuid(c.req.param('id'));
    const trial = trialPage(c, deps, id);
    if (trial) return trial;
    const found = lookUp(deps, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, deps, found, false);
    if (blocked) return blocked;
    const { tx, account, channel } = found;
    switch (channel.type) {
      case 'card':
        return cardPage(c, deps.scenarios, tx, account, channel);
      case 'qr':
        return qrPage(c, tx, account, channel);
      case 'wallet':
      case 'mobile_banking':
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
    responses: {
      200: page('The approval screen'),
      303: { description: 'Not a wallet or banking-app payment: to its payment page' },
      404: page('No payment page for this id'),
      409: page('The payment already has its outcome'),
      410: page('The link has expired'),
    },
  });
  app.get('/:id/app', (c) => {
    const id = lowerCaseUuid(c.req.param('id'));
    const found = lookUp(deps, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, deps, found, false);
    if (blocked) return blocked;
    if (found.channel.type !== 'wallet' && found.channel.type !== 'mobile_banking') return c.redirect(`/pay/${id}`, 303);
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
              properties: {
                number: { type: 'string' },
                expiry: { type: 'string', description: 'MM/YY' },
                security_code: { type: 'string' },
                holder_name: { type: 'string' },
              },
            },
          },
        },
      },
    },
    responses: {
      200: page('The outcome, when the transaction has no return_url'),
      303: redirect('To the return_url'),
      400: page('The card form with its errors'),
      404: page('No payment page for this id'),
      409: page('The payment already has its outcome'),
      410: page('The link has expired'),
    },
  });
  app.post('/:id/pay', async (c) => {
    const id = lowerCaseUuid(c.req.param('id'));
    const trial = await submitTrialPage(c, deps, id);
    if (trial) return trial;
    const found = lookUp(deps, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, deps, found, true);
    if (blocked) return blocked;
    const { tx, account, channel } = found;
    try {
      if (channel.type === 'card') {
        const form = cardForm(await readForm(c));
        const errors = cardFormErrors(form);
        if (Object.keys(errors).length > 0) return cardPage(c, deps.scenarios, tx, account, channel, form, errors, 400);
        // An expired card is declined; otherwise the scenario rules decide, as for a card sent to the API.
        deps.payments.payWithCard(tx.id, {
          number: form.number,
          expiration_date: form.expiry,
          ...(form.holder_name ? { holder_name: form.holder_name } : {}),
        });
      } else {
        deps.payments.resolve(id, 'SUCCEEDED');
      }
    } catch (err) {
      if (!(err instanceof SandboxError) || err.status !== 409) throw err;
      return finishedPage(c, deps.transactions.byIdAnyAccount(id)!, account, 409);
    }
    const target = returnTarget(tx);
    if (target) return c.redirect(target, 303);
    const after = deps.transactions.byIdAnyAccount(id)!;
    return after.status === 'PENDING' ? processingPage(c, after, account, 200) : finishedPage(c, after, account, 200);
  });

  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/{id}/cancel',
    ...pageOperation,
    operationId: 'cancelPaymentPage',
    summary: 'Cancel: the payment becomes FAILED and its webhook is queued',
    parameters: [idParameter],
    responses: {
      200: page('The outcome, when the transaction has no cancel_url or return_url'),
      303: redirect('To the cancel_url, else the return_url'),
      404: page('No payment page for this id'),
      409: page('The payment already has its outcome'),
      410: page('The link has expired'),
    },
  });
  app.post('/:id/cancel', (c) => {
    const id = lowerCaseUuid(c.req.param('id'));
    const trial = leaveTrialPage(c, deps, id);
    if (trial) return trial;
    const found = lookUp(deps, id);
    if ('reason' in found) return notFoundPage(c, id, found.reason);
    const blocked = notPayable(c, deps, found, true);
    if (blocked) return blocked;
    let resolved: TransactionRow;
    try {
      resolved = deps.payments.resolve(id, 'FAILED');
    } catch (err) {
      if (!(err instanceof SandboxError) || err.status !== 409) throw err;
      return finishedPage(c, deps.transactions.byIdAnyAccount(id)!, found.account, 409);
    }
    deps.customerCancelled(resolved.account_id);
    const target = cancelTarget(resolved);
    if (target) return c.redirect(target, 303);
    return finishedPage(c, resolved, found.account, 200);
  });

  return app;
}
