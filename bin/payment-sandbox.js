#!/usr/bin/env node
// The `payment-sandbox` command. Runs the CLI bundled in dist/bundle/ (built by `npm run build`,
// which `npm ci` and `npm install` run through the `prepare` script): one file for our code,
// zod and Hono loads several times faster than the few hundred modules of dist/ one by one.
import { main } from '../dist/bundle/cli.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`payment-sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
