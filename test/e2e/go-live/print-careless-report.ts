/**
 * Plays the careless merchant against a sandbox in this process and prints what
 * `payment-sandbox report` (the built CLI, dist/) shows a CI log about it, with its exit code:
 * `npm run build && npx tsx test/e2e/go-live/print-careless-report.ts [text|json|junit]`.
 */
import { spawn } from 'node:child_process';
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
  // Not spawnSync: the sandbox answering it runs in this process.
  const child = spawn(process.execPath, [cli, 'report', '--sandbox-url', sandbox.url, '--format', format]);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  process.stdout.write(`$ payment-sandbox report --sandbox-url ${sandbox.url} --format ${format}\n${out}(exit code ${code})\n`);
} finally {
  await receiver.close();
  await sandbox.stop();
}
