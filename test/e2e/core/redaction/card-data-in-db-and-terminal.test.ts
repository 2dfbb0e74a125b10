/**
 *, "card data kept in other forms", over a real socket with `--db <file>`: after
 * every form of test/support/card-data-forms.ts (form and multipart bodies, camelCase and
 * escaped keys, query strings, the path, `Idempotency-Key`, `X-Merchant-Account-Id`,
 * metadata) and a WAL checkpoint, the raw bytes of the database file and its -wal hold no
 * card number and no security code. Failed on main for every form but plain JSON keys.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/core/log.js';
import { startServer } from '../../../../src/server.js';
import { FORM_CARDS, FORM_CODE, bareDigits, sendCardDataForms } from '../../../support/card-data-forms.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-card-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CODE_AS_VALUE = new RegExp(`[=:"\\n]\\s*${FORM_CODE}(?!\\d)`);

describe('card data in any form never reaches the --db file nor the terminal', () => {
  it('the raw bytes of the database (after a WAL checkpoint) and every printed line hold no card number or security code', async () => {
    const db = join(dir, 'sandbox.db');
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', out: (l) => lines.push(l), err: (l) => lines.push(l) });
    const server = await startServer({ port: 0, ticker: false, db }, { logger });
    let statuses: Record<string, number>;
    try {
      statuses = await sendCardDataForms((path, init) => fetch(`${server.url}${path}`, init));
      server.db.pragma('wal_checkpoint(TRUNCATE)');
      const log = await (await fetch(`${server.url}/_sandbox/requests?limit=100`)).text();
      expect(log).toContain('•••• 1111');
    } finally {
      await server.stop();
    }
    expect(statuses.metadata).toBe(201);
    expect(statuses.idempotencyReplay).toBe(201);

    const files = [db, `${db}-wal`].filter((f) => existsSync(f));
    const bytes = files.map((f) => readFileSync(f).toString('latin1')).join('\n');
    expect(bytes).toContain('acc_demo_direct');
    expect(bytes).toContain('order-'); // the idempotency key's own text is gone, its record is there
    for (const [form, card] of Object.entries(FORM_CARDS)) {
      expect(bytes, form).not.toContain(card);
      expect(bytes, form).not.toContain(bareDigits(card));
    }
    expect(bytes).not.toMatch(CODE_AS_VALUE);
    const printed = lines.join('\n');
    for (const card of Object.values(FORM_CARDS)) expect(printed).not.toContain(bareDigits(card));
  });
});
