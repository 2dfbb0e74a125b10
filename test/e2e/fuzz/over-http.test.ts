/**
 * A sample of the /v4 and control-API properties over a real socket (loopback, the node
 * server of src/server.ts): mutated payment bodies and generated query strings never get a
 * 5xx, and 4xx answers are the envelope with pointers into the request.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { directPayment, headers } from '../../support/app.js';
import { answerProblem, mutatedBody, paramsScaled, queryString, toQuery, type Json } from '../../support/fuzz.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1', ticker: false });
});
afterAll(async () => {
  await server.stop();
});

async function check(method: string, path: string, body?: Json, query: Record<string, string> = {}): Promise<void> {
  const res = await fetch(`${server.url}${path}${toQuery(query)}`, {
    method,
    headers: headers(),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const problem = answerProblem(res.status, text, { body, query });
  if (problem !== null) throw new Error(`${method} ${path}${toQuery(query)} ${JSON.stringify(body) ?? ''}\n-> ${problem}`);
}

describe('properties over a real socket', () => {
  it('POST /v4/transactions with mutated bodies, and GET lists with generated queries', async () => {
    const valid = fc
      .integer({ min: 1, max: 99_999_999 })
      .map((amount) => directPayment({ amount, external_identifier: undefined }) as Json);
    await fc.assert(
      fc.asyncProperty(mutatedBody(valid), async (body) => check('POST', '/v4/transactions', body)),
      paramsScaled(0.3),
    );
    const lists = fc.constantFrom('/v4/transactions', '/v4/buyers', '/_sandbox/transactions', '/_sandbox/deliveries');
    await fc.assert(
      fc.asyncProperty(lists, queryString, async (path, query) => check('GET', path, undefined, query)),
      paramsScaled(0.3),
    );
  });
});
