/** Handler of `GET /_sandbox/webhook-public-key`: the published key in the form asked for. */
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import { webhookKeyAs } from './webhook-key.forms.js';
import type { GetRoute } from './webhook-key.routes.js';

export const get: ControlHandler<GetRoute> = async (c) => {
  const { body, contentType } = await webhookKeyAs(c.req.valid('query').format);
  return c.body(body, 200, { 'content-type': contentType });
};
