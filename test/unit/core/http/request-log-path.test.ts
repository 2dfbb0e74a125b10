/**
 * The path and query the request log keeps (http/request-log.ts `loggedPath`): a plain query
 * is kept as it came, byte for byte as URLSearchParams would write it; secret parameters and
 * API keys or JWTs in any value are redacted whatever the query looks like.
 */
import { describe, expect, it } from 'vitest';
import { loggedPath } from '../../../../src/core/http/request-log.js';

const slowPath = (path: string, query: string): string => {
  const written = new URLSearchParams(query).toString();
  return written ? `${path}?${written}` : path;
};

describe('loggedPath', () => {
  it('keeps a plain query as URLSearchParams would write it', () => {
    for (const query of ['limit=20', 'limit=20&cursor=eyJkIjoiYSIsImsiOjQyLCJ0IjoiYWJjIn0', 'a.b=c-d*_e&x=']) {
      expect(loggedPath('/v4/transactions', `http://localhost/v4/transactions?${query}`)).toBe(slowPath('/v4/transactions', query));
      expect(loggedPath('/v4/transactions', `http://localhost/v4/transactions?${query}`)).toBe(`/v4/transactions?${query}`);
    }
    expect(loggedPath('/v4/transactions', 'http://localhost/v4/transactions')).toBe('/v4/transactions');
  });

  it('writes any other query the way URLSearchParams does', () => {
    for (const query of ['a=b+c', 'a=%41', 'flag', 'a=1&&b=2', 'q=caf%C3%A9', 'a=b c']) {
      expect(loggedPath('/v4/buyers', `http://localhost/v4/buyers?${query}`)).toBe(slowPath('/v4/buyers', query));
    }
  });

  it('redacts secret parameters and API keys or JWTs in values, plain queries included', () => {
    expect(loggedPath('/v4/x', 'http://h/v4/x?limit=5&api_key=abc')).toBe('/v4/x?limit=5&api_key=[redacted]');
    expect(loggedPath('/v4/x', 'http://h/v4/x?token=abc')).toBe('/v4/x?token=[redacted]');
    expect(loggedPath('/v4/x', 'http://h/v4/x?q=sk_test_abc123')).toBe('/v4/x?q=sk_test_[redacted]');
    expect(loggedPath('/v4/x', 'http://h/v4/x?q=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe('/v4/x?q=[redacted JWT]');
    expect(loggedPath('/v4/x', 'http://h/v4/x?q=a+sk_live_XYZ')).toBe('/v4/x?q=a+sk_live_[redacted]');
  });

  it('keeps every id in a path whole, and masks a card number written as a path segment', () => {
    for (const id of [
      '2d00603c-7140-4664-9754-38cb262fec61',
      '2D00603C-7140-4664-9754-38CB262FEC61',
      '41111111-1111-1111-1111-111111111111',
    ]) {
      expect(loggedPath(`/v4/transactions/${id}/refunds`, `http://h/v4/transactions/${id}/refunds`)).toBe(`/v4/transactions/${id}/refunds`);
    }
    expect(loggedPath('/v4/transactions/4111111111111111', 'http://h/v4/transactions/4111111111111111')).toBe('/v4/transactions/•••• 1111');
  });
});

describe('loggedPath redacts an API key wherever it starts in a path', () => {
  it('after a percent-encoded comma or slash, and after a digit', () => {
    const key = 'sk_test_rk_9f3a8c2b7d1e';
    for (const before of ['%2C', '%2c', '%2F', '%2f', '7', 'abc%2C', 'a%2F1']) {
      const path = `/v4/transactions/${before}${key}`;
      expect(loggedPath(path, `http://h${path}`), before).toBe(`/v4/transactions/${before}sk_test_[redacted]`);
    }
    const live = '/v4/buyers/0sk_live_rk_abc';
    expect(loggedPath(live, `http://h${live}`)).toBe('/v4/buyers/0sk_live_[redacted]');
    const jwt = '/v4/x/%2CeyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln';
    expect(loggedPath(jwt, `http://h${jwt}`)).toBe('/v4/x/%2C[redacted JWT]');
  });

  it('leaves a word that merely ends in "sk" alone', () => {
    expect(loggedPath('/v4/x/task_test_runner', 'http://h/v4/x/task_test_runner')).toBe('/v4/x/task_test_runner');
  });
});

describe('loggedPath of a URL asked again', () => {
  it('answers as the first time, for the path it is asked with', () => {
    const url = 'http://h/v4/transactions/4111111111111111?limit=20&api_key=abc';
    for (let i = 0; i < 3; i++) {
      expect(loggedPath('/v4/transactions/4111111111111111', url)).toBe('/v4/transactions/•••• 1111?limit=20&api_key=[redacted]');
    }
    // The same URL with another path (as a router that rewrote it would pass): that path, scanned.
    expect(loggedPath('/v4/transactions/x', url)).toBe('/v4/transactions/x?limit=20&api_key=[redacted]');
    expect(loggedPath('/v4/transactions/4111111111111111', url)).toBe('/v4/transactions/•••• 1111?limit=20&api_key=[redacted]');
  });

  it('answers a long URL and many distinct ones alike', () => {
    const long = `/v4/x/${'a'.repeat(600)}/4111111111111111`;
    expect(loggedPath(long, `http://h${long}`)).toBe(`/v4/x/${'a'.repeat(600)}/•••• 1111`);
    for (let i = 0; i < 1500; i++) {
      const path = `/v4/transactions/${i}-sk_test_${i}`;
      expect(loggedPath(path, `http://h${path}`)).toBe(`/v4/transactions/${i}-sk_test_[redacted]`);
    }
    expect(loggedPath('/v4/transactions/4111111111111111', 'http://h/v4/transactions/4111111111111111')).toBe('/v4/transactions/•••• 1111');
  });
});
