/**
 * Plays the careless merchant against a sandbox in this process and prints what
 * `payment-sandbox report` (the built CLI, dist/) shows a CI log about it, with its exit code:
 * `npm run build && npx tsx test/e2e/go-live/print-careless-report.ts [text|json|junit]`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../../src/index.js';
import { carelessJourney } from '../../support/go-live-journeys.js';
import { startReceiver } from '../../support/receiver.js';

const format = process.argv[2] ?? 'text';
const receiver = await startReceiver();
const sandbox = await startSandbox({ ticker: false, deliveryTimeoutMs: 2000 });
try {
  await carelessJourney(sandbox.url, receiver);
  const cli = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
  const run = spawnSync(process.execPath, [cli, 'report', '--url', sandbox.url, '--format', format], { encoding: 'utf8' });
  process.stdout.write(`$ payment-sandbox report --url ${sandbox.url} --format ${format}\n${run.stdout}${run.stderr}(exit code ${run.status})\n`);
} finally {
  await receiver.close();
  await sandbox.stop();
}
