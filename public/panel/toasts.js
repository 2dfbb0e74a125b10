/**
 * Notifications: short-lived success toasts and error toasts that stay, showing the
 * control API's own message, code and validation details.
 */
import { ApiError } from './api.js';
import { h } from './dom.js';
import { byId } from './state.js';

/**
 * Shows a toast; at most three at once, the oldest success goes first.
 * @param {{ title: string, message?: string, tone?: 'ok' | 'danger', meta?: string, details?: Array<{ pointer: string, message: string }> }} toast
 */
export function toast({ title, message, tone = 'ok', meta, details = [] }) {
  const isError = tone === 'danger';
  const close = h(
    'button',
    { type: 'button', class: 'btn btn-ghost btn-icon toast-close', 'aria-label': 'Dismiss', title: 'Dismiss' },
    '×',
  );
  const el = h(
    'div',
    { class: `toast toast-${tone}`, role: isError ? 'alert' : 'status' },
    h(
      'div',
      { class: 'toast-body' },
      h('p', { class: 'toast-title' }, title),
      message ? h('p', { class: 'toast-message' }, message) : null,
      details.length > 0
        ? h(
            'ul',
            { class: 'toast-details' },
            details.map((d) => h('li', null, h('span', { class: 'mono' }, d.pointer || '(body)'), ' ', d.message)),
          )
        : null,
      meta ? h('p', { class: 'toast-meta mono' }, meta) : null,
    ),
    close,
  );
  const remove = () => el.remove();
  close.addEventListener('click', remove);
  const container = byId('toasts');
  container.append(el);
  while (container.children.length > 3) (container.querySelector('.toast-ok') ?? container.firstElementChild)?.remove();
  if (!isError) setTimeout(remove, 3500);
}

/**
 * An error toast with the API's message, code and status.
 * @param {string} title
 * @param {unknown} err
 */
export function showError(title, err) {
  const apiError = err instanceof ApiError ? err : new ApiError(0, { message: err instanceof Error ? err.message : String(err) });
  toast({
    title,
    message: apiError.message,
    tone: 'danger',
    meta: apiError.status ? `${apiError.code} · HTTP ${apiError.status}` : apiError.code,
    details: apiError.details,
  });
}
