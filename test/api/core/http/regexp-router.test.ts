/**
 * Every route of the app fits Hono's RegExpRouter. One that does not (a static or deeper route
 * beside a parameter, such as /docs/docs.css beside /docs/:page) makes the SmartRouter fall
 * back to the TrieRouter for the whole app, and every /v4 request pays for it.
 */
import { describe, expect, it } from 'vitest';
import { testApp } from '../../../support/app.js';

describe('the router', () => {
  it('is the RegExpRouter once the app has answered', async () => {
    const { app } = testApp();
    await app.request('/_sandbox/health');
    const router = app.router as unknown as { activeRouter: { name: string } };
    expect(router.activeRouter.name).toBe('RegExpRouter');
  });
});
