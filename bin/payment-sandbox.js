#!/usr/bin/env node
// The `payment-sandbox` command. Runs the compiled CLI in dist/ (built by `npm run build`,
// which `npm ci` and `npm install` run through the `prepare` script).
import { main } from '../dist/cli.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`payment-sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
