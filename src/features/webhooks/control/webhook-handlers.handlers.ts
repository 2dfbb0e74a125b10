/** Handler of `GET /_sandbox/webhook-handlers`: the handlers of the package's README.md, read once per router. */
import { readFileSync } from 'node:fs';
import { packagePath } from '../../../core/config.js';
import { notFound } from '../../../core/domain/errors.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import { readmeHandlers, type WebhookHandlerExample } from './webhook-handlers.readme.js';
import type { ListRoute } from './webhook-handlers.routes.js';

/** Where the handlers come from: the package's README.md unless told otherwise. */
export interface WebhookHandlerOptions {
  /** The README's text; throws when there is none. */
  readReadme?: () => string;
}

export function webhookHandlerHandlers({ readReadme = () => readFileSync(packagePath('README.md'), 'utf8') }: WebhookHandlerOptions = {}) {
  let cached: WebhookHandlerExample[] | undefined;
  const handlers = (): WebhookHandlerExample[] => {
    if (cached === undefined) {
      let readme: string;
      try {
        readme = readReadme();
      } catch {
        throw notFound('The webhook handlers come from the package README.md, which this installation lacks');
      }
      cached = readmeHandlers(readme);
    }
    return cached;
  };
  const list: ControlHandler<ListRoute> = (c) => c.json({ handlers: handlers() }, 200);
  return { list };
}
