/**
 * The panel's sign-in screen for a sandbox started with --admin-token: the token is asked
 * for once, kept in sessionStorage (this tab only, gone when it closes) and sent with every
 * control call as the X-Sandbox-Admin-Token header (the event stream, which cannot send
 * headers, carries it as ?token=).
 */

const KEY = 'payment-sandbox.admin-token';

/** The token of this tab's session, or null. */
export function adminToken() {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

let shown = false;

/**
 * Shows the sign-in screen (once); a submitted token is kept for the session and the panel
 * loads again with it.
 * @param {boolean} rejected whether a token was sent and refused
 */
export function showSignIn(rejected) {
  if (shown) return;
  shown = true;
  const dialog = document.createElement('dialog');
  dialog.className = 'dialog';
  dialog.id = 'sign-in';
  const form = document.createElement('form');
  form.method = 'dialog';
  const title = document.createElement('h2');
  title.textContent = 'Sign in to this sandbox';
  const text = document.createElement('p');
  text.textContent = rejected
    ? 'That admin token was refused. Enter the --admin-token the sandbox was started with.'
    : 'This sandbox is protected: enter the --admin-token (or PAYMENT_SANDBOX_ADMIN_TOKEN) it was started with.';
  const input = document.createElement('input');
  input.type = 'password';
  input.name = 'token';
  input.required = true;
  input.autocomplete = 'current-password';
  input.setAttribute('aria-label', 'Admin token');
  const actions = document.createElement('div');
  actions.className = 'dialog-actions';
  const button = document.createElement('button');
  button.type = 'submit';
  button.textContent = 'Sign in';
  actions.append(button);
  form.append(title, text, input, actions);
  dialog.append(form);
  form.addEventListener('submit', () => {
    try {
      sessionStorage.setItem(KEY, input.value);
    } catch {
      // storage unavailable: the token cannot be kept
    }
    location.reload();
  });
  document.body.append(dialog);
  dialog.showModal();
}
