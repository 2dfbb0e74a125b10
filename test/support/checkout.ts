/**
 * A merchant's project folder where the sandbox is installed, as `npm install --save-dev
 * payment-sandbox` leaves it: `node_modules/payment-sandbox` is this repository (its build)
 * and `node_modules/.bin/payment-sandbox` its CLI, so `npx payment-sandbox` and
 * `node_modules/.bin/payment-sandbox` both run this checkout's build.
 */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Installs the sandbox into `dir` (made when not given); returns the folder. */
export function merchantCheckout(dir = mkdtempSync(join(tmpdir(), 'merchant-'))): string {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'payment-sandbox'));
  symlinkSync(join(ROOT, 'bin', 'payment-sandbox.js'), join(dir, 'node_modules', '.bin', 'payment-sandbox'));
  return dir;
}
