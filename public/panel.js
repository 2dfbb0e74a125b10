/**
 * The control panel's entry point: a client of the control API (/_sandbox) and its event
 * stream only. It mounts the views, wires the frame and the clock, installs the one
 * render function, follows the change feed and loads the first data. The state lives in
 * panel/state.js, loading in panel/loading.js, actions in panel/actions.js, the views in
 * panel/views/; every merchant string reaches the page as text (panel/dom.js).
 */
import { ctx, setViewShower } from './panel/actions.js';
import { followEvents } from './panel/api.js';
import { renderClock, setUpClock } from './panel/clock.js';
import { renderFrame, setLive, setUpFrame, showView } from './panel/frame.js';
import { invalidate, loadCurrencies, onChange, refresh } from './panel/loading.js';
import { LISTS, byId, setRenderer } from './panel/state.js';
import { credentialsView } from './panel/views/credentials.js';
import { deliveriesView } from './panel/views/deliveries.js';
import { goLiveView } from './panel/views/go-live.js';
import { requestsView } from './panel/views/requests.js';
import { scenariosView } from './panel/views/scenarios.js';
import { subscriptionsView } from './panel/views/subscriptions.js';
import { transactionsView } from './panel/views/transactions.js';

/** @import { View, ViewName } from './panel/types.js' */

/** @type {Record<ViewName, View>} */
const views = {
  transactions: transactionsView(ctx),
  subscriptions: subscriptionsView(ctx),
  webhooks: deliveriesView(ctx),
  requests: requestsView(ctx),
  'go-live': goLiveView(ctx),
  credentials: credentialsView(ctx),
  scenarios: scenariosView(ctx),
};

/** Brings the page up to date with the state (synchronously; cheap when little changed). */
function render() {
  renderFrame();
  renderClock();
  for (const view of Object.values(views)) view.update();
}

function boot() {
  for (const [name, view] of Object.entries(views)) byId(`mount-${name}`).append(view.root);
  setRenderer(render);
  setViewShower(showView);
  setUpFrame();
  setUpClock();
  render();

  followEvents({
    onChange,
    onStatus(status) {
      setLive(status);
      // A (re)connection may have missed changes: reload everything once.
      if (status === 'live') invalidate(['accounts', 'clock', 'scenarios', 'report', ...LISTS]);
    },
  });

  void (async () => {
    // The clock shown is the selected account's: read once the accounts are known.
    await Promise.all([loadCurrencies(), refresh('accounts').then(() => refresh('clock')), refresh('scenarios')]);
    for (const kind of LISTS) void refresh(kind);
    void refresh('report');
  })();
}

boot();
