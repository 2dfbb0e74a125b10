/**
 * The conformance report for a CI log: `text` (one line per check, and for each failure the
 * rule, the request, the JSON pointer, what was expected and what came; then the differences
 * between the two servers) and `junit` (one test case per check). `json` is the report itself.
 */
import { formatJunitSuite, type JunitCase } from '../go-live/index.js';
import type { CheckFailure, CheckResult, ConformanceReport } from './report.js';

const show = (v: unknown): string => (v === undefined ? 'missing' : JSON.stringify(v));
const truncate = (text: string, max = 600): string => (text.length > max ? `${text.slice(0, max)}…` : text);

function failureLines(f: CheckFailure, indent: string): string[] {
  const lines = [
    `${indent}${f.message}`,
    `${indent}pointer: ${f.pointer === '' ? '(the whole answer)' : f.pointer}  expected: ${f.expected}  got: ${show(f.actual)}`,
  ];
  if (f.exchange) {
    const body =
      f.exchange.request.body === undefined
        ? ''
        : ` ${truncate(typeof f.exchange.request.body === 'string' ? f.exchange.request.body : JSON.stringify(f.exchange.request.body), 300)}`;
    lines.push(`${indent}request: ${f.exchange.request.method} ${f.exchange.request.path}${body}`);
    lines.push(`${indent}answer: ${f.exchange.response.status} ${truncate(JSON.stringify(f.exchange.response.body))}`);
  }
  return lines;
}

function outcomeWord(r: CheckResult): string {
  const outcomes = [r.result.outcome, r.compare_result?.outcome];
  if (outcomes.includes('failed')) return 'FAIL';
  return outcomes.includes('skipped') ? 'SKIP' : 'PASS';
}

/** Why a check was skipped, on each server it was skipped on (`on URL: ` when comparing). */
function skipReasons(r: CheckResult, report: ConformanceReport): string[] {
  const sides = [
    { reason: r.result.skip_reason, url: report.url },
    { reason: r.compare_result?.skip_reason ?? null, url: report.compare_url },
  ];
  return sides.filter((s) => s.reason !== null).map((s) => `${report.compare_url ? `on ${s.url}: ` : ''}${s.reason}`);
}

/** The text report. */
export function formatConformanceText(report: ConformanceReport): string {
  const lines = [
    `payment-sandbox conformance against ${report.url}${report.compare_url ? ` and ${report.compare_url}` : ''} (generated ${report.generated_at})`,
    '',
  ];
  for (const r of report.checks) {
    lines.push(`${outcomeWord(r)}  ${r.name}  (${r.rule})`);
    lines.push(...skipReasons(r, report).map((reason) => `      skipped${report.compare_url ? ' ' : ': '}${reason}`));
    if (r.result.failure) {
      if (report.compare_url) lines.push(`      on ${report.url}:`);
      lines.push(...failureLines(r.result.failure, '      '));
    }
    if (r.compare_result?.failure) lines.push(`      on ${report.compare_url}:`, ...failureLines(r.compare_result.failure, '      '));
  }
  if (report.compare_url) {
    lines.push(
      '',
      report.differences.length === 0
        ? 'DIFFERENCES: none'
        : `DIFFERENCES (${report.differences.length}): ${report.url} vs ${report.compare_url}`,
    );
    for (const d of report.differences)
      lines.push(
        `  ${d.check}  ${d.request}  ${d.pointer === '' ? '(whole answer)' : d.pointer}: ${show(d.url_value)} vs ${show(d.compare_value)}`,
      );
  }
  const { checks, passed, failed, skipped, differences } = report.summary;
  lines.push(
    '',
    `conformance: ${failed === 0 && differences === 0 ? 'passed' : 'FAILED'} (${passed} of ${checks} checks passed, ${failed} failed, ${skipped} skipped${report.compare_url ? `, ${differences} differences` : ''})`,
  );
  return lines.join('\n');
}

/**
 * The JUnit document: one test case per check (failed where it failed on either server or the
 * servers differ; skipped, with the reason, where credentials it needs were not given).
 */
export function formatConformanceJunit(report: ConformanceReport, hostname = 'payment-sandbox'): string {
  const cases: JunitCase[] = report.checks.map((r) => {
    const failures = [r.result.failure, r.compare_result?.failure ?? null];
    const diffs = report.differences.filter((d) => d.check === r.name);
    const body: string[] = [r.rule];
    failures.forEach((f, i) => {
      if (f) body.push(`on ${i === 0 ? report.url : report.compare_url}:`, ...failureLines(f, '  '));
    });
    for (const d of diffs) body.push(`differs: ${d.request} ${d.pointer}: ${show(d.url_value)} vs ${show(d.compare_value)}`);
    const first = failures.find((f) => f !== null) ?? null;
    const failed = first !== null || diffs.length > 0;
    const skipped = skipReasons(r, report);
    return {
      name: r.name,
      classname: 'conformance',
      timeSeconds: (r.result.duration_ms + (r.compare_result?.duration_ms ?? 0)) / 1000,
      skipped: !failed && skipped.length > 0 ? skipped.join('; ') : null,
      failure: failed
        ? {
            message: first ? `${first.pointer}: ${first.message}` : `servers differ at ${diffs[0]!.pointer}`,
            type: first ? 'check' : 'difference',
            body: body.join('\n'),
          }
        : null,
    };
  });
  const properties: Record<string, string> = { url: report.url };
  if (report.compare_url) properties.compare_url = report.compare_url;
  return formatJunitSuite({
    name: 'conformance',
    timestamp: report.generated_at,
    hostname,
    properties,
    cases,
    out: formatConformanceText(report),
  });
}
