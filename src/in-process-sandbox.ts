/**
 * The sandbox the shadow proxy compares with: started in the proxy's process on a free loopback
 * port with the default options (in memory, quiet) and its webhooks sent to `notificationUrl`
 * (the proxy's endpoint); its demo accounts are the sandbox side's accounts.
 */
import { resolveOptions } from './core/config.js';
import { createLogger } from './core/log.js';
import { credentialsOf } from './features/accounts/index.js';
import type { InProcessSandbox } from './features/shadow/index.js';
import { startServer } from './server.js';

export async function startInProcessSandbox({ notificationUrl }: { notificationUrl: string }): Promise<InProcessSandbox> {
  const running = await startServer(resolveOptions({ port: 0, host: '127.0.0.1', notificationUrl }), {
    logger: createLogger({ format: 'text', quiet: true }),
  });
  return {
    url: running.url,
    accounts: running.features.accounts.queries.all().map(credentialsOf),
    stop: () => running.stop(),
  };
}
