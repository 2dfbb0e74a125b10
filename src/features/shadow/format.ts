/**
 * The shadow report for a CI log (`text`) or a CI's test view (`junit`: one test case per kind
 * of difference, failed when the run shows any). `json` is the report itself.
 */
import { formatJunitSuite, type JunitCase } from '../go-live/index.js';
import { DIFFERENCE_KINDS, type ShadowDifference, type ShadowReport } from './shadow-report.js';

const show = (v: unknown): string => (v === undefined ? 'missing' : JSON.stringify(v));

const line = (d: ShadowDifference): string =>
  `${d.route}  ${d.pointer === '' ? '(whole answer)' : d.pointer}: upstream ${show(d.upstream)}, sandbox ${show(d.sandbox)}${d.exchange > 0 ? `  (exchange ${d.exchange}: ${d.request})` : ''}`;

export function formatShadowText(report: ShadowReport): string {
  const { exchanges, compared, webhooks_compared, differences } = report.summary;
  const lines = [`shadow of ${report.upstream}: ${compared} of ${exchanges} exchanges compared, ${webhooks_compared} webhooks compared`];
  for (const [kind, list] of Object.entries(report.by_kind)) {
    lines.push('', `${kind} (${list.length}):`);
    for (const d of list) lines.push(`  ${line(d)}`);
  }
  for (const e of report.errors) lines.push('', `not compared: exchange ${e.exchange} ${e.request}: ${e.message}`);
  lines.push('', differences === 0 ? 'shadow: no differences' : `shadow: ${differences} difference${differences === 1 ? '' : 's'}`);
  return lines.join('\n');
}

export function formatShadowJunit(report: ShadowReport, hostname = 'payment-sandbox'): string {
  const cases: JunitCase[] = DIFFERENCE_KINDS.map((kind) => {
    const list = report.by_kind[kind] ?? [];
    return {
      name: kind,
      classname: 'shadow',
      timeSeconds: 0,
      failure:
        list.length === 0
          ? null
          : {
              message: `${list.length} ${kind} difference${list.length === 1 ? '' : 's'}: ${line(list[0]!)}`,
              type: 'difference',
              body: list.map(line).join('\n'),
            },
    };
  });
  return formatJunitSuite({
    name: 'shadow',
    timestamp: report.generated_at,
    hostname,
    properties: { upstream: report.upstream, exchanges: String(report.summary.compared) },
    cases,
    out: formatShadowText(report),
  });
}
