/**
 * A merchant generates a typed client from the sandbox's OpenAPI document and uses it: the
 * types come from `openapi-typescript` (run on /openapi.json fetched over a real socket), a
 * small program written with `openapi-fetch` is type-checked by tsc (strict; a wrong call
 * must be a type error), and the compiled program creates a transaction and gets it back.
 * As in production, the client's base URL ends in /v4 (the spec's `base_url`; the document's
 * server) and the paths it calls are relative to it (`/transactions`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { DIRECT } from '../../../support/app.js';

/** Inside the project (gitignored), so the program resolves openapi-fetch from node_modules. */
const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The merchant's program: typed calls only, and one call the types must refuse. */
const PROGRAM = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

/** \`baseUrl\` is the API's base URL, which ends in /v4 (as a production base_url does). */
export async function createAndGet(baseUrl: string, apiKey: string, accountId: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${apiKey}\` } });
  const created = await client.POST('/transactions', {
    params: { header: { 'x-merchant-account-id': accountId, 'idempotency-key': 'typed-client-1' } },
    body: {
      amount: 1050,
      currency: 'USD',
      external_identifier: 'typed-order-1',
      customer: { email: 'jane@example.com', name: 'Jane Doe' },
      payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
      browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'openapi-fetch', user_device: 'desktop' },
    },
  });
  if (created.error !== undefined) throw new Error('create failed: ' + created.error.message);
  const id: string = created.data.id;
  const fetched = await client.GET('/transactions/{transaction_id}', {
    params: { path: { transaction_id: id }, header: { 'x-merchant-account-id': accountId } },
  });
  if (fetched.error !== undefined) throw new Error('get failed: ' + fetched.error.code);
  const status: string = fetched.data.status;
  const amount: number = fetched.data.amount;
  return { id, status, amount, replayed: created.response.headers.get('idempotent-replayed') };
}

/** Never called: tsc must reject these calls, or the types say nothing. */
export function refusedByTheTypes(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error amounts are integers in minor units, not strings
  void client.POST('/transactions', { params: { header: { 'x-merchant-account-id': 'a' } }, body: { amount: '10.50', currency: 'USD' } });
  // @ts-expect-error no such path
  void client.GET('/payments');
  // @ts-expect-error the paths are relative to the base URL, which ends in /v4
  void client.GET('/v4/transactions');
  // @ts-expect-error x-merchant-account-id is a required header
  void client.GET('/transactions/{transaction_id}', { params: { path: { transaction_id: 'x' } } });
}
`;

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false });
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(join(ARTIFACTS, 'typed-client-'));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a typed client generated from /openapi.json', () => {
  it(
    'type-checks, then creates and gets a transaction over a real socket, with a base URL ending in /v4',
    { timeout: 180_000 },
    async () => {
      const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0] & {
        servers: Array<{ url: string }>;
      };
      // The document's server is the API's base URL, as the spec's base_url: it ends in /v4.
      const baseUrl = document.servers[0]!.url;
      expect(baseUrl).toBe(`${server.url}/v4`);
      const types = astToString(await openapiTS(document));
      expect(types).toContain('"/transactions/{transaction_id}"');
      expect(types).not.toContain('"/v4/');
      writeFileSync(join(dir, 'api.d.ts'), types);
      writeFileSync(join(dir, 'client.ts'), PROGRAM);

      const args = [
        '--strict',
        '--target',
        'ES2022',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--lib',
        'ES2023,DOM',
        '--types',
        'node',
        '--skipLibCheck',
        '--outDir',
        join(dir, 'out'),
        join(dir, 'client.ts'),
      ];
      try {
        execFileSync(process.execPath, [TSC, ...args], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        const out = err as { stdout?: string; stderr?: string };
        expect.fail(`tsc refused the typed client:\n${out.stdout ?? ''}${out.stderr ?? ''}`);
      }

      const program = (await import(pathToFileURL(join(dir, 'out', 'client.js')).href)) as {
        createAndGet(
          baseUrl: string,
          apiKey: string,
          accountId: string,
        ): Promise<{ id: string; status: string; amount: number; replayed: string | null }>;
      };
      const first = await program.createAndGet(baseUrl, DIRECT.api_key, DIRECT.account_id);
      expect(first).toMatchObject({ status: 'PENDING', amount: 1050, replayed: null });
      expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
      // The same idempotency key again: the documented Idempotent-Replayed header, the same transaction.
      const again = await program.createAndGet(baseUrl, DIRECT.api_key, DIRECT.account_id);
      expect(again).toEqual({ ...first, replayed: 'true' });
    },
  );
});
