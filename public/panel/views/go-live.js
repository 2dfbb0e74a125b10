/**
 * The Go-live view (GET /_sandbox/report for the selected account): the summary, the findings
 * errors first, each with what happened, its fix, a link to its docs entry and its evidence (each
 * request, delivery and transaction opens in its own view), then the coverage as a checklist
 * whose "how" links to the view, control or documentation that exercises it. Reloaded on the
 * change feed like the other views.
 */
import { badge, h, setChildren } from '../dom.js';
import { shortId } from '../format.js';
import { emptyState, openLink } from './common.js';

/** @import { PanelContext } from '../actions.js' */
/** @import { GoLiveFinding, CoverageEntry, ViewName } from '../types.js' */
/** @import { Tone } from '../dom.js' */

/**
 * The served page of a `docs` reference: `docs/<page>.md#<anchor>` opens `/docs/<page>#<anchor>`,
 * `README.md#<anchor>` opens `/docs/readme#<anchor>`.
 * @param {string} docs
 */
export function docsHref(docs) {
  const [file = '', anchor] = docs.split('#');
  const page = file === 'README.md' ? 'readme' : file.replace(/^docs\//, '').replace(/\.md$/, '');
  return `/docs/${encodeURIComponent(page)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
}

/** @param {string} docs */
const docsLink = (docs) => h('a', { href: docsHref(docs), target: '_blank', rel: 'noopener', class: 'mono' }, docs);

/** @type {Record<GoLiveFinding['severity'], Tone>} */
const TONE = { error: 'danger', warning: 'warn', info: 'info' };

/**
 * Where in the panel each scenario is exercised (a view, and what to press there).
 * @type {Record<CoverageEntry['scenario'], { view: ViewName, label: string } | { href: string, label: string }>}
 */
const EXERCISE = {
  payment_succeeded: { view: 'transactions', label: 'Settle a pending payment' },
  payment_failed: { view: 'transactions', label: 'Fail a pending payment' },
  refund: { view: 'transactions', label: 'Refund a succeeded payment' },
  partial_refund: { view: 'transactions', label: 'Refund part of a payment' },
  customer_cancelled: { view: 'transactions', label: "Open a payment's payment_url and press Cancel" },
  link_expired: { view: 'transactions', label: 'Leave a payment_url unpaid, then +1 day on the clock' },
  subscription_renewal: { view: 'subscriptions', label: 'Advance the clock past a billing date' },
  subscription_past_due: { view: 'scenarios', label: 'Plan "renewal-fails", then advance the clock' },
  webhook_retry: { view: 'scenarios', label: 'The "webhook failures" rule' },
  webhook_duplicate: { view: 'transactions', label: 'Webhook fault: duplicate' },
  webhook_bad_signature: { view: 'transactions', label: 'Webhook fault: bad signature' },
  webhook_out_of_order: { view: 'transactions', label: 'Webhook fault: out of order' },
  api_fault: { href: '/reference', label: 'The X-Sandbox-Fault header (API reference)' },
};

/** @param {PanelContext} ctx the panel's state and actions */
export function goLiveView(ctx) {
  const root = h('div', { class: 'stack go-live' });
  let shown = '';

  /** @param {GoLiveFinding} f */
  function evidence(f) {
    const { request_ids: requests = [], delivery_ids: deliveries = [], transaction_ids: transactions = [] } = f.evidence;
    const more =
      f.evidence.count > Math.max(requests.length, deliveries.length, transactions.length)
        ? h('span', { class: 'faint small' }, ` (first ${Math.max(requests.length, deliveries.length, transactions.length)} shown)`)
        : null;
    /** @param {string} title @param {readonly (string | number)[]} ids @param {string} href @param {(id: string) => void} open @param {(id: string | number) => string} label */
    const group = (title, ids, href, open, label) =>
      ids.length === 0
        ? null
        : h(
            'div',
            { class: 'evidence-group' },
            h('span', { class: 'evidence-kind' }, title),
            h(
              'ul',
              { class: 'evidence-ids' },
              ids.map((id) =>
                h(
                  'li',
                  null,
                  h(
                    'a',
                    {
                      href,
                      class: 'mono',
                      'data-evidence': `${title}:${id}`,
                      onclick: /** @param {Event} e */ (e) => (e.preventDefault(), open(String(id))),
                    },
                    label(id),
                  ),
                ),
              ),
            ),
          );
    return h(
      'div',
      { class: 'evidence' },
      h(
        'p',
        { class: 'evidence-count' },
        h('strong', null, String(f.evidence.count)),
        f.evidence.count === 1 ? ' occurrence' : ' occurrences',
        more,
      ),
      group(
        'requests',
        requests,
        '#requests',
        (id) => ctx.showRequest(id),
        (id) => `#${id}`,
      ),
      group(
        'deliveries',
        deliveries,
        '#webhooks',
        (id) => ctx.showDelivery(id),
        (id) => shortId(String(id)),
      ),
      group(
        'transactions',
        transactions,
        '#transactions',
        (id) => ctx.showTransaction(id),
        (id) => shortId(String(id)),
      ),
    );
  }

  /** @param {GoLiveFinding} f */
  function finding(f) {
    return h(
      'article',
      { class: `card pad finding finding-${f.severity}`, 'data-code': f.code, 'aria-label': `${f.severity}: ${f.code}` },
      h(
        'div',
        { class: 'finding-head' },
        badge(f.severity, TONE[f.severity]),
        h('h3', { class: 'finding-title' }, f.title),
        h('code', { class: 'finding-code' }, f.code),
      ),
      h('p', { class: 'finding-detail' }, f.detail),
      h('p', { class: 'finding-fix' }, h('strong', null, 'Fix: '), f.fix),
      evidence(f),
      h('p', { class: 'faint small' }, 'Docs: ', docsLink(f.docs)),
    );
  }

  /** @param {CoverageEntry} c */
  function coverageItem(c) {
    const target = EXERCISE[c.scenario];
    const link =
      'view' in target
        ? openLink(`#${target.view}`, () => {
            window.location.hash = `#${target.view}`;
          })
        : h('a', { href: target.href, target: '_blank', rel: 'noopener' }, 'Open');
    link.textContent = target.label;
    return h(
      'li',
      { class: `coverage-item ${c.seen ? 'seen' : 'unseen'}`, 'data-scenario': c.scenario },
      h('span', { class: 'check', 'aria-hidden': 'true' }, c.seen ? '✓' : ''),
      h('span', { class: 'visually-hidden' }, c.seen ? 'seen: ' : 'not yet seen: '),
      h('span', { class: 'mono coverage-name' }, c.scenario),
      c.seen
        ? null
        : h(
            'span',
            { class: 'coverage-how' },
            h('span', { class: 'muted' }, c.how),
            ' ',
            link,
            h('span', { class: 'faint small' }, ' · docs: ', docsLink(c.docs)),
          ),
    );
  }

  return {
    root,
    update() {
      const { report } = ctx.state;
      const account = ctx.account();
      const signature = JSON.stringify([report, account?.account_id]);
      if (signature === shown) return;
      shown = signature;
      if (report.error) {
        setChildren(root, h('p', { class: 'error-text' }, `Could not load the go-live report: ${report.error}`));
        return;
      }
      const data = report.data;
      if (!data || !account) return;
      const { errors, warnings, infos } = data.summary;
      const seen = data.coverage.filter((c) => c.seen).length;
      const verdict = errors > 0 ? 'danger' : warnings > 0 ? 'warn' : 'ok';
      const summary = h(
        'section',
        { class: `card pad go-live-summary tone-${verdict}`, 'aria-label': 'Summary' },
        h(
          'p',
          { class: 'go-live-verdict' },
          errors > 0
            ? 'Not ready: fix the errors before you take real money.'
            : warnings > 0
              ? 'Almost: the warnings will hurt in production.'
              : data.findings.length > 0
                ? 'Ready, with a note.'
                : 'No findings so far.',
        ),
        h(
          'div',
          { class: 'go-live-counts' },
          h(
            'span',
            { class: 'count-box count-error', 'data-count': 'errors' },
            h('strong', null, String(errors)),
            errors === 1 ? ' error' : ' errors',
          ),
          h(
            'span',
            { class: 'count-box count-warning', 'data-count': 'warnings' },
            h('strong', null, String(warnings)),
            warnings === 1 ? ' warning' : ' warnings',
          ),
          h(
            'span',
            { class: 'count-box count-info', 'data-count': 'infos' },
            h('strong', null, String(infos)),
            infos === 1 ? ' info' : ' infos',
          ),
          h(
            'span',
            { class: 'count-box', 'data-count': 'coverage' },
            h('strong', null, `${seen}/${data.coverage.length}`),
            ' scenarios covered',
          ),
        ),
        h(
          'p',
          { class: 'faint small' },
          'In CI: ',
          h('code', null, `payment-sandbox report --account ${account.account_id} --fail-on error --format junit > go-live.xml`),
        ),
      );
      const findings =
        data.findings.length === 0
          ? h(
              'div',
              { class: 'card empty' },
              emptyState({
                title: 'No findings',
                text: 'Nothing in this account\u2019s traffic would hurt in production so far. Findings appear here as your integration sends requests and answers webhooks.',
              }),
            )
          : h('section', { class: 'stack findings', 'aria-label': 'Findings' }, data.findings.map(finding));
      const coverage = h(
        'section',
        { class: 'card pad coverage', 'aria-labelledby': 'coverage-title' },
        h('h2', { class: 'card-title', id: 'coverage-title' }, `Coverage: ${seen} of ${data.coverage.length} scenarios`),
        h('p', { class: 'muted small' }, 'What your tests have been through once. Each unchecked scenario says how to exercise it.'),
        h('ul', { class: 'coverage-list' }, data.coverage.map(coverageItem)),
      );
      setChildren(root, summary, findings, coverage);
    },
  };
}
