/**
 * The request's origin (`core/http/origin.ts`), which keeps the last Host's answer: requests
 * that alternate between Hosts and schemes each get their own origin, and a Host that is not a
 * bare host[:port] never gives one, however often it follows a good one.
 */
import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { requestOrigin } from '../../../../src/core/http/origin.js';

const request = (url: string, host: string | undefined) => ({ req: { url, header: () => host } }) as unknown as Context;

describe('the origin of a request', () => {
  it('is each request its own, whichever Host and scheme came before', () => {
    const asked: [string, string | undefined][] = [
      ['http://127.0.0.1:4010/v4/transactions', '127.0.0.1:4010'],
      ['http://127.0.0.1:4010/v4/transactions', 'localhost:4010'],
      ['https://127.0.0.1:4010/v4/transactions', 'localhost:4010'],
      ['http://127.0.0.1:4010/v4/transactions', 'evil.example/path'],
      ['http://127.0.0.1:4010/v4/transactions', '127.0.0.1:4010'],
      ['http://127.0.0.1:4010/v4/transactions', undefined],
      ['http://127.0.0.1:4010/v4/transactions', 'LOCALHOST:4010'],
    ];
    for (let round = 0; round < 2; round++) {
      expect(asked.map(([url, host]) => requestOrigin(request(url, host)))).toEqual([
        'http://127.0.0.1:4010',
        'http://localhost:4010',
        'https://localhost:4010',
        undefined,
        'http://127.0.0.1:4010',
        undefined,
        'http://localhost:4010',
      ]);
    }
  });
});
