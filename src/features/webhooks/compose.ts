/**
 * The webhooks feature built from the core and the transactions' outbox: the workbench (send
 * any body signed, say why a signature check failed) and the control routes of deliveries,
 * the signing key and the handlers.
 */
import type { CoreParts } from '../../core/core.js';
import type { Feature } from '../../core/http/route-context.js';
import { register } from './register.js';
import { createSignatureExplainer, type SignatureExplainer } from './signature-explain.js';
import { createWebhookSender, type WebhookSendDeps, type WebhookSender } from './webhook-send.js';

/** What the webhooks use of other features: the outbox a sent body is queued in. */
export interface WebhooksFeatureDeps {
  outbox: Pick<WebhookSendDeps, 'queue' | 'webhookSubject'>;
}

export interface WebhooksFeature extends Feature {
  /** The webhook workbench: send any body signed (`sender`), say why a signature check failed (`explainer`). */
  workbench: { sender: WebhookSender; explainer: SignatureExplainer };
}

export function createWebhooksFeature(core: CoreParts, { outbox }: WebhooksFeatureDeps): WebhooksFeature {
  const { options, queries, deliveries, signing, webhookPublicKeyPem } = core;
  const workbench = {
    sender: createWebhookSender({
      accounts: queries.accounts,
      defaultUrl: options.notificationUrl,
      targetRefused: (url) => core.webhookTargetRefused(url),
      queue: (fields, joinQueue) => outbox.queue(fields, joinQueue),
      webhookSubject: (id) => outbox.webhookSubject(id),
    }),
    explainer: createSignatureExplainer({ signing, publicKeyPem: webhookPublicKeyPem, deliveries }),
  };
  return { workbench, register: (ctx) => register(ctx, workbench) };
}
