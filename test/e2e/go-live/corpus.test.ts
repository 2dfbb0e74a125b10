/**
 * The go-live report measured over a generated corpus of merchant journeys
 * (`test/support/go-live-corpus.ts`): careful journeys must get no finding, careless ones
 * exactly their defect's code (and what it inevitably implies). Precision and recall, per code
 * and in all, must be 100%.
 *
 * Real sockets: an answer that never reached the client is made the way a client meets it, by
 * giving up (AbortController) on a held create or losing the connection to a `reset-after`
 * fault, which `app.request()` cannot show; webhooks go to a real receiver with slow and hanging
 * handlers. One sandbox (short delivery timeout, so slow and hanging handlers cost seconds, not
 * tens of seconds) serves every journey, each in its own account with its own clock.
 *
 * Size and seed: `CORPUS_SIZE` (default 50 here, 500 under `npm run corpus`) and `CORPUS_SEED`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { CORPUS_CODES, DEFECTS, generateCorpus } from '../../support/go-live-corpus.js';
import { CORPUS_DELIVERY_TIMEOUT_MS, formatDisagreements, formatScores, runCorpus, score } from '../../support/go-live-corpus-runner.js';
import { perTest } from '../../support/servers.js';

const FULL = process.env.npm_lifecycle_event === 'corpus';
const SIZE = Number(process.env.CORPUS_SIZE ?? (FULL ? 500 : 50));
const SEED = Number(process.env.CORPUS_SEED ?? 20_261_122);
vi.setConfig({ testTimeout: FULL || SIZE > 100 ? 3_600_000 : 120_000 });

const per = perTest();

describe('the go-live report over a generated corpus of merchant journeys', () => {
  it('is reproducible from its seed, and every code and defect is in it at this size', () => {
    const journeys = generateCorpus(SIZE, SEED);
    expect(JSON.stringify(generateCorpus(SIZE, SEED))).toBe(JSON.stringify(journeys));
    expect(new Set(journeys.flatMap((j) => j.expected))).toEqual(new Set(CORPUS_CODES));
    expect(new Set(journeys.map((j) => j.defect?.name).filter(Boolean))).toEqual(new Set(DEFECTS.map((d) => d.name)));
    expect(journeys.filter((j) => !j.defect).length).toBeGreaterThanOrEqual(SIZE / 3);
  });

  it('lists every defect, with its code, in the go-live guide', () => {
    const guide = readFileSync(new URL('../../../docs/go-live.md', import.meta.url), 'utf8');
    for (const d of DEFECTS) {
      const row = guide.split('\n').find((line) => line.startsWith(`| \`${d.name}\``));
      expect(row, d.name).toContain(`\`${d.code}\``);
      for (const implied of d.implies) expect(row, d.name).toContain(`\`${implied}\``);
    }
  });

  it(`has 100% precision and recall over ${SIZE} journeys (seed ${SEED})`, async () => {
    const journeys = generateCorpus(SIZE, SEED);
    const receiver = await per.receive();
    // One account per journey, beside the two demo accounts.
    const server = await per.serve({ deliveryTimeoutMs: CORPUS_DELIVERY_TIMEOUT_MS, maxAccounts: SIZE + 2 });
    const verdicts = await runCorpus(server.url, receiver, journeys, FULL ? 12 : 16);
    const table = formatScores(verdicts, SEED);
    const disagreements = formatDisagreements(verdicts, SEED);
    console.log(`${table}${disagreements ? `\n\nDisagreements:\n${disagreements}` : ''}`);

    expect(verdicts.filter((v) => v.error).map((v) => `journey ${v.journey.index}: ${v.error}`)).toEqual([]);
    const all = score(verdicts).at(-1)!;
    expect({ precision: all.precision, recall: all.recall }, 'the disagreements are printed above').toEqual({ precision: 1, recall: 1 });
  });
});
