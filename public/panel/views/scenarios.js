/**
 * The loaded scenarios (GET /_sandbox/scenarios): each file's rules in the order they are
 * tried, with what they match and the steps that follow, so a developer can see which magic
 * values and delays are in force.
 */
import { emptyState } from './common.js';
import { h, setChildren } from '../dom.js';

/** @import { PanelContext } from '../actions.js' */

/** @param {unknown} value */
function compact(value) {
  return JSON.stringify(value);
}

/** @param {PanelContext} ctx the panel's state and actions */
export function scenariosView(ctx) {
  const root = h('div', { class: 'stack' });
  let shown = '';
  return {
    root,
    update() {
      const { scenarios } = ctx.state;
      const signature = JSON.stringify(scenarios);
      if (signature === shown) return;
      shown = signature;
      if (scenarios.error) {
        setChildren(root, h('p', { class: 'error-text' }, `Could not load the scenarios: ${scenarios.error}`));
        return;
      }
      if (!scenarios.items) return;
      if (scenarios.items.length === 0) {
        setChildren(
          root,
          h(
            'div',
            { class: 'card empty' },
            emptyState({ title: 'No scenarios loaded', text: 'Start the sandbox with --scenario <file> to load rules.' }),
          ),
        );
        return;
      }
      setChildren(
        root,
        scenarios.items.map((s) =>
          h(
            'section',
            { class: 'card pad scenario', 'aria-label': `Scenario ${s.name}` },
            h(
              'div',
              { class: 'cred-head' },
              h('h2', { class: 'card-title' }, s.name),
              s.source ? h('span', { class: 'pill mono' }, s.source) : null,
              h('span', { class: 'faint small' }, `${s.rules.length} rules, first match wins`),
            ),
            s.description ? h('p', { class: 'muted scenario-description' }, s.description) : null,
            h(
              'ol',
              { class: 'rules' },
              s.rules.map((r) =>
                h(
                  'li',
                  { class: 'rule' },
                  h('div', { class: 'rule-name' }, r.name),
                  r.description ? h('p', { class: 'rule-description' }, r.description) : null,
                  h(
                    'dl',
                    { class: 'rule-parts' },
                    h('div', null, h('dt', null, 'match'), h('dd', null, h('code', null, compact(r.match)))),
                    h('div', null, h('dt', null, 'steps'), h('dd', null, h('code', null, compact(r.steps)))),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    },
  };
}
