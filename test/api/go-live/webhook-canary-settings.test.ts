/** `PATCH /_sandbox/accounts/{id}` `{"webhook_canary"}`: an account's own canary setting over `--webhook-canary`. */
import { describe, expect, it } from 'vitest';
import { DIRECT, testApp } from '../../support/app.js';

async function patch(app: ReturnType<typeof testApp>['app'], body: unknown) {
  const res = await app.request(`/_sandbox/accounts/${DIRECT.account_id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('webhook_canary of an account', () => {
  it('follows the option until set; "option" goes back to it', async () => {
    const { app } = testApp({ webhookCanary: true });
    const read = await app.request(`/_sandbox/accounts/${DIRECT.account_id}`);
    expect(await read.json()).toMatchObject({ webhook_canary: true, own: { webhook_canary: false } });
    expect((await patch(app, { webhook_canary: false })).body).toMatchObject({ webhook_canary: false, own: { webhook_canary: true } });
    expect((await patch(app, { webhook_canary: 'option' })).body).toMatchObject({ webhook_canary: true, own: { webhook_canary: false } });
  });

  it('anything but true, false or "option" is 400 at its pointer', async () => {
    const { app } = testApp();
    const refused = await patch(app, { webhook_canary: 'yes' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'bad_request', details: [{ location: 'body', pointer: '/webhook_canary' }] });
  });
});
