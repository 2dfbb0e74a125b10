/**
 * The go-live report's links hold: every finding code links to its entry on the go-live docs
 * page (the anchor is the code), every coverage scenario's `docs` is a heading or id of the
 * docs page it names (the panel opens it at /docs/<page>#<anchor>), and the CI examples end
 * with the report.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COVERAGE_HOW, COVERAGE_SCENARIOS, FINDING_CODES, RULES, findingDocs } from '../../../src/features/go-live/go-live.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const readme = [
  'README.md',
  'docs/go-live.md',
  'docs/control-api.md',
  'docs/faults.md',
  'docs/scenarios.md',
  'docs/subscriptions.md',
  'docs/webhooks.md',
  'docs/payment-methods.md',
  'docs/api.md',
]
  .map(read)
  .join('\n');

/** GitHub's anchor of a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

const goLivePage = new URL('../../../docs/go-live.md', import.meta.url);

describe('the go-live docs entries', () => {
  it('link every finding code to the go-live docs page, anchored by the code itself', () => {
    for (const code of FINDING_CODES) expect(findingDocs(code)).toBe(`docs/go-live.md#${code}`);
  });

  it.skipIf(!existsSync(goLivePage))('has an entry on the go-live docs page per finding code, naming its severity', () => {
    const page = readFileSync(goLivePage, 'utf8');
    const pageAnchors = new Set(
      [...page.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)).concat([...page.matchAll(/id="([^"]+)"/g)].map((m) => m[1]!)),
    );
    for (const code of FINDING_CODES) {
      expect(pageAnchors.has(code), code).toBe(true);
      expect(page).toContain(RULES[code].severity);
    }
  });
});

describe('the coverage scenarios', () => {
  it("link each scenario's how to an anchor of the docs page it names, and docs/go-live.md names each scenario", () => {
    for (const scenario of COVERAGE_SCENARIOS) {
      const [page, anchor] = COVERAGE_HOW[scenario].docs.split('#');
      expect(page, scenario).toMatch(/^docs\/[a-z-]+\.md$/);
      const text = read(page!);
      const pageAnchors = new Set(
        [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)).concat([...text.matchAll(/id="([^"]+)"/g)].map((m) => m[1]!)),
      );
      expect(pageAnchors.has(anchor!), `${scenario}: ${page}#${anchor}`).toBe(true);
      expect(read('docs/go-live.md')).toContain(`\`${scenario}\``);
    }
  });

  it('ends the CI examples with the report as JUnit', () => {
    const workflow = parse(read('examples/github-actions.yml')) as { jobs: Record<string, { steps: { run?: string; uses?: string }[] }> };
    // The job that runs the tests (the other builds the sandbox's image); the sandbox's address is
    // PAYMENT_SANDBOX_URL, so the report names no flag for it.
    const steps = workflow.jobs['test']!.steps;
    const report = steps.findIndex((s) =>
      /payment-sandbox report --fail-on error --require-coverage recommended --format junit > go-live\.xml/.test(s.run ?? ''),
    );
    expect(report).toBeGreaterThan(steps.findIndex((s) => s.run === 'npm test'));
    // After the report, only the listener's stop and the report's upload.
    expect(
      steps
        .slice(report + 1)
        .every((s) => s.uses?.startsWith('actions/upload-artifact') || /^(\[ .+\] \|\| exit 0\n)?kill /.test(s.run ?? '')),
    ).toBe(true);
    expect(read('compose.yaml')).toContain('report --fail-on error --format junit > go-live.xml');
    // The guide's recipe also gates on the recommended coverage.
    expect(readme).toContain('payment-sandbox report --fail-on error --require-coverage recommended --format junit > go-live.xml');
  });
});
