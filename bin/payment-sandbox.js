#!/usr/bin/env node
// The `payment-sandbox` command. Runs the CLI bundled in dist/bundle/ (built by `npm run build`,
// which `npm ci` and `npm install` run through the `prepare` script): one file for our code,
// zod and Hono loads several times faster than the few hundred modules of dist/ one by one.
import * as nodeModule from 'node:module';

// Node >= 22.1 keeps V8's compiled code of the bundle on disk between runs (in the system's
// temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such cache.
// Enabled before the bundle is imported, so the bundle is loaded with a dynamic import.
if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();

const { main } = await import('../dist/bundle/cli.js');

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`payment-sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
