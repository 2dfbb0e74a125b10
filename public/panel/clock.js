/**
 * The sandbox clock in the sidebar: the time running on from its last reading, how far it
 * is ahead of real time, and the buttons that advance it (+1 hour, +1 day, +1 month as a
 * calendar month computed by the server, or a custom amount).
 */
import { advanceClock } from './actions.js';
import { h, setChildren } from './dom.js';
import { clockParts, offsetText } from './format.js';
import { byId, nowMs, state } from './state.js';

/** @type {Record<string, number>} */
const UNIT_SECONDS = { minutes: 60, hours: 3600, days: 86400 };

/** @type {Record<string, [{ seconds: number } | { months: number }, string]>} */
const PRESETS = {
  hour: [{ seconds: 3600 }, 'by 1 hour'],
  day: [{ seconds: 86400 }, 'by 1 day'],
  month: [{ months: 1 }, 'by 1 month'],
};

/** Wires the clock buttons and the custom form, and ticks the shown time every second. */
export function setUpClock() {
  for (const button of document.querySelectorAll('[data-advance]')) {
    button.addEventListener('click', () => {
      const preset = PRESETS[button.getAttribute('data-advance') ?? ''];
      if (preset) void advanceClock(...preset);
    });
  }
  const customToggle = byId('clock-custom-toggle');
  const form = /** @type {HTMLFormElement} */ (byId('clock-custom'));
  const amount = /** @type {HTMLInputElement} */ (byId('clock-custom-amount'));
  const unit = /** @type {HTMLSelectElement} */ (byId('clock-custom-unit'));
  /** @param {boolean} open */
  const setOpen = (open) => {
    form.hidden = !open;
    customToggle.setAttribute('aria-expanded', String(open));
    if (open) amount.focus();
  };
  customToggle.addEventListener('click', () => setOpen(form.hidden));
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      setOpen(false);
      customToggle.focus();
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const seconds = Math.round(Number(amount.value) * (UNIT_SECONDS[unit.value] ?? 1));
    if (await advanceClock({ seconds }, `by ${amount.value} ${unit.value}`)) {
      setOpen(false);
      customToggle.focus();
    }
  });
  setInterval(renderClock, 1000);
}

/** Shows the sandbox time and its offset. */
export function renderClock() {
  if (!state.clock) return;
  const now = nowMs();
  const parts = clockParts(now);
  const timeEl = byId('clock-now');
  setChildren(timeEl, h('span', { class: 'clock-date' }, parts.date), h('span', { class: 'clock-time' }, parts.time));
  timeEl.setAttribute('datetime', new Date(now).toISOString());
  const offset = offsetText(state.clock.offset);
  const offsetEl = byId('clock-offset');
  offsetEl.textContent = offset ? `${offset} ahead` : 'real time';
  offsetEl.className = offset ? 'pill pill-ahead' : 'pill';
  for (const button of document.querySelectorAll('[data-clock-control]'))
    /** @type {HTMLButtonElement} */ (button).disabled = state.busy.has('clock');
}
