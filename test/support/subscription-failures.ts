/**
 * Support of the subscription API tests: the 400 envelope's details, and the details of a
 * refused creation (checking that nothing was created).
 */
import { expect } from 'vitest';
import { body, headers } from './app.js';
import { DIRECT, postSubscription, type App } from './subscriptions.js';

export interface Detail {
  type: string;
  pointer: string;
  message: string;
  location: string;
}

/** Status, code and details of an error answer. */
export async function failure(res: Response): Promise<{ status: number; code: string; details: Detail[] }> {
  const json = await body<{ code: string; details: Detail[] }>(res);
  return { status: res.status, code: json.code, details: json.details };
}

/** The details of a 400 for `payload`, checking that nothing was created. */
export async function detailsOf(app: App, payload: unknown, creds = DIRECT, extra: Record<string, string> = {}): Promise<Detail[]> {
  const res = await failure(await postSubscription(app, payload, creds, extra));
  expect(res.status).toBe(400);
  expect(res.code).toBe('bad_request');
  const list = await app.request('/v4/subscriptions', { headers: headers(creds) });
  expect((await body<{ items: unknown[] }>(list)).items).toEqual([]);
  return res.details;
}
