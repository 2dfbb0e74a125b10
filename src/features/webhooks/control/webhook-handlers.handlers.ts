/** Handler of `GET /_sandbox/webhook-handlers`: the package's handler files, read once per router. */
import { readFileSync } from 'node:fs';
import { packagePath } from '../../../core/config.js';
import { notFound } from '../../../core/domain/errors.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import { handlerFiles, type WebhookHandlerExample } from './webhook-handlers.files.js';
import type { ListRoute } from './webhook-handlers.routes.js';

/** Where the handlers come from: the package's `examples/webhook-handlers/` unless told otherwise. */
export interface WebhookHandlerOptions {
  /** The text of a file given by its path in the package; throws when there is none. */
  readFile?: (path: string) => string;
}

export function webhookHandlerHandlers({
  readFile = (path) => readFileSync(packagePath(...path.split('/')), 'utf8'),
}: WebhookHandlerOptions = {}) {
  let cached: WebhookHandlerExample[] | undefined;
  const handlers = (): WebhookHandlerExample[] => {
    if (cached === undefined) {
      try {
        cached = handlerFiles(readFile);
      } catch {
        throw notFound('The webhook handlers come from the package folder examples/webhook-handlers/, which this installation lacks');
      }
    }
    return cached;
  };
  const list: ControlHandler<ListRoute> = (c) => c.json({ handlers: handlers() }, 200);
  return { list };
}
