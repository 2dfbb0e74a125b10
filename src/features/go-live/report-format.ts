/**
 * The go-live report as a CI log shows it: `text` (findings grouped by severity, then the
 * coverage as a checklist) and `junit` (a JUnit XML document as Jenkins' and GitLab's JUnit
 * readers take it: one test case per finding code, failed where the code has findings; the
 * coverage checklist in the suite's system-out). The `json` format is the document itself.
 */
import { COVERAGE_SCENARIOS, FINDING_CODES, atOrAbove, type GoLiveSeverity } from './go-live.js';
import type { CoverageEntry, GoLiveFinding, GoLiveReport } from './report.schemas.js';

/** `--fail-on`: the lowest severity that fails the run, or never. */
export type FailOn = GoLiveSeverity | 'never';

/** The findings at or above `failOn`. */
export function failingFindings(report: GoLiveReport, failOn: FailOn): GoLiveFinding[] {
  return failOn === 'never' ? [] : report.findings.filter((f) => atOrAbove(f.severity, failOn));
}

const HEADINGS: Record<GoLiveSeverity, string> = { error: 'ERRORS', warning: 'WARNINGS', info: 'INFO' };
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function evidenceLine(f: GoLiveFinding): string {
  const parts = [`count ${f.evidence.count}`];
  if (f.evidence.request_ids) parts.push(`requests ${f.evidence.request_ids.join(', ')}`);
  if (f.evidence.delivery_ids) parts.push(`deliveries ${f.evidence.delivery_ids.join(', ')}`);
  if (f.evidence.transaction_ids) parts.push(`transactions ${f.evidence.transaction_ids.join(', ')}`);
  return parts.join('; ');
}

/** The accounts a report speaks of, in the order it names them. */
function accountsOf(report: GoLiveReport): (string | null)[] {
  return [...new Set([...report.coverage.map((c) => c.account_id), ...report.findings.map((f) => f.account_id)])];
}

function checklist(entries: CoverageEntry[], indent = '  '): string[] {
  return entries.map((c) => (c.seen ? `${indent}[x] ${c.scenario}` : `${indent}[ ] ${c.scenario.padEnd(22)} how: ${c.how}`));
}

/** The text report: a header line, the findings by severity, the coverage checklist, a verdict. */
export function formatText(report: GoLiveReport, source: string, failOn: FailOn): string {
  const { errors, warnings, infos } = report.summary;
  const lines = [
    `payment-sandbox go-live report for ${source} (generated ${report.generated_at})`,
    `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`,
  ];
  for (const severity of ['error', 'warning', 'info'] as const) {
    const group = report.findings.filter((f) => f.severity === severity);
    if (group.length === 0) continue;
    lines.push('', `${HEADINGS[severity]} (${group.length})`);
    for (const f of group) {
      lines.push(
        `  ${severity.toUpperCase().padEnd(7)} ${f.code}  [${f.account_id === null ? 'no known account' : `account ${f.account_id}`}]`,
      );
      lines.push(`          ${f.title}. ${f.detail}`);
      lines.push(`          evidence: ${evidenceLine(f)}`);
      lines.push(`          fix: ${f.fix}`);
      lines.push(`          docs: ${f.docs}`);
    }
  }
  if (report.findings.length === 0) lines.push('', 'No findings.');
  for (const account of accountsOf(report)) {
    const entries = report.coverage.filter((c) => c.account_id === account);
    if (entries.length === 0) continue;
    lines.push(
      '',
      `COVERAGE [account ${account}]: ${entries.filter((c) => c.seen).length} of ${entries.length} scenarios seen`,
      ...checklist(entries),
    );
  }
  if (report.coverage.length === 0) lines.push('', 'COVERAGE: no merchant traffic seen yet.');
  const failing = failingFindings(report, failOn);
  lines.push(
    '',
    failing.length > 0
      ? `go-live: FAILED (${plural(failing.length, 'finding')} at or above --fail-on ${failOn})`
      : `go-live: passed (no finding at or above --fail-on ${failOn})`,
  );
  return lines.join('\n');
}

/** Text made safe for an XML attribute or element. */
export const escapeXml = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex -- XML 1.0 has no place for these characters: they are dropped
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * The JUnit XML document: `<testsuites>` with one `<testsuite>` per account the report names
 * (one named "go-live" when it names none), each with one `<testcase>` per finding code, a
 * `<failure>` (type = severity) where the code has findings, and the coverage checklist in
 * `<system-out>`. Every attribute and element the Ant/Jenkins JUnit schema requires is there.
 */
export function formatJunit(report: GoLiveReport, source: string, hostname = 'payment-sandbox'): string {
  const timestamp = report.generated_at.slice(0, 19); // the schema's ISO 8601 form: no fraction, no offset
  const accounts = accountsOf(report);
  const suites = (accounts.length > 0 ? accounts : [null]).map((account, id) => {
    const findings = report.findings.filter((f) => f.account_id === account);
    // One test case per rule: a code with several findings (coverage_missing, one per scenario) fails once, listing each.
    const cases = FINDING_CODES.map((code) => {
      const of = findings.filter((x) => x.code === code);
      const classname = `go-live.${account ?? 'sandbox'}`;
      const f = of[0];
      if (!f) return `    <testcase name="${code}" classname="${escapeXml(classname)}" time="0"/>`;
      const body = of
        .map((x) => [`${x.title}. ${x.detail}`, `evidence: ${evidenceLine(x)}`, `fix: ${x.fix}`, `docs: ${x.docs}`].join('\n'))
        .join('\n\n');
      const count = of.reduce((sum, x) => sum + x.evidence.count, 0);
      return [
        `    <testcase name="${code}" classname="${escapeXml(classname)}" time="0">`,
        `      <failure message="${escapeXml(`${f.severity}: ${f.title} (${count})`)}" type="${f.severity}">${escapeXml(body)}</failure>`,
        '    </testcase>',
      ].join('\n');
    });
    const failures = new Set(findings.map((x) => x.code)).size;
    const coverage = report.coverage.filter((c) => c.account_id === account);
    const out =
      coverage.length > 0
        ? [`Coverage: ${coverage.filter((c) => c.seen).length} of ${coverage.length} scenarios seen`, ...checklist(coverage, '')].join('\n')
        : `Coverage: no merchant traffic seen yet (${COVERAGE_SCENARIOS.length} scenarios).`;
    const name = account === null ? 'go-live' : `go-live ${account}`;
    return [
      `  <testsuite name="${escapeXml(name)}" package="payment-sandbox" id="${id}" timestamp="${timestamp}" hostname="${escapeXml(hostname)}" tests="${FINDING_CODES.length}" failures="${failures}" errors="0" time="0">`,
      '    <properties>',
      `      <property name="source" value="${escapeXml(source)}"/>`,
      account === null ? '' : `      <property name="account_id" value="${escapeXml(account)}"/>`,
      '    </properties>',
      ...cases,
      `    <system-out>${escapeXml(out)}</system-out>`,
      '    <system-err></system-err>',
      '  </testsuite>',
    ]
      .filter((line) => line !== '')
      .join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>', // the Ant/Jenkins schema allows no attribute here
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** One test case of a JUnit document: a failure message and body when it failed, the reason when it was skipped. */
export interface JunitCase {
  name: string;
  classname: string;
  timeSeconds: number;
  failure: { message: string; type: string; body: string } | null;
  skipped?: string | null;
}

/**
 * A JUnit XML document of one `<testsuite>` with the Ant/Jenkins schema's required attributes
 * and elements, for reports other than the go-live one (the conformance kit). A skipped case
 * is a `<skipped message>` element and the suite's `skipped` count, as Surefire writes them
 * and Jenkins and GitLab read them.
 */
export function formatJunitSuite(suite: {
  name: string;
  timestamp: string;
  hostname: string;
  properties: Record<string, string>;
  cases: JunitCase[];
  out: string;
}): string {
  const failures = suite.cases.filter((c) => c.failure !== null).length;
  const skipped = suite.cases.filter((c) => c.failure === null && typeof c.skipped === 'string').length;
  const time = suite.cases.reduce((sum, c) => sum + c.timeSeconds, 0).toFixed(3);
  const cases = suite.cases.map((c) => {
    const open = `    <testcase name="${escapeXml(c.name)}" classname="${escapeXml(c.classname)}" time="${c.timeSeconds.toFixed(3)}"`;
    if (c.failure === null && typeof c.skipped === 'string')
      return [`${open}>`, `      <skipped message="${escapeXml(c.skipped)}"/>`, '    </testcase>'].join('\n');
    if (c.failure === null) return `${open}/>`;
    return [
      `${open}>`,
      `      <failure message="${escapeXml(c.failure.message)}" type="${escapeXml(c.failure.type)}">${escapeXml(c.failure.body)}</failure>`,
      '    </testcase>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    `  <testsuite name="${escapeXml(suite.name)}" package="payment-sandbox" id="0" timestamp="${suite.timestamp.slice(0, 19)}" hostname="${escapeXml(suite.hostname)}" tests="${suite.cases.length}" failures="${failures}" errors="0"${skipped > 0 ? ` skipped="${skipped}"` : ''} time="${time}">`,
    '    <properties>',
    ...Object.entries(suite.properties).map(([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`),
    '    </properties>',
    ...cases,
    `    <system-out>${escapeXml(suite.out)}</system-out>`,
    '    <system-err></system-err>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
