/**
 * `GET /_sandbox/report?require_coverage=...`: the gate over the control API. An unknown
 * scenario name is 400 in the spec's error envelope, pointing at the parameter.
 */
import { describe, expect, it } from 'vitest';
import { DIRECT, testApp } from '../../support/app.js';

interface ErrorBody {
  code: string;
  message: string;
  details: { location: string; pointer: string; message: string }[];
}

describe('require_coverage on GET /_sandbox/report', () => {
  it('adds a coverage_missing error for each recommended scenario not seen', async () => {
    const { app } = testApp();
    const res = await app.request(`/_sandbox/report?account_id=${DIRECT.account_id}&require_coverage=recommended`);
    expect(res.status).toBe(200);
    const report = (await res.json()) as { findings: { code: string; scenario?: string; severity: string }[] };
    expect(report.findings.filter((f) => f.code === 'coverage_missing').map((f) => f.scenario)).toEqual([
      'payment_succeeded',
      'payment_failed',
      'refund',
      'webhook_retry',
      'webhook_duplicate',
      'webhook_bad_signature',
    ]);
  });

  it('answers an unknown name 400 in the error envelope, with its pointer and the valid names', async () => {
    const { app } = testApp();
    const res = await app.request('/_sandbox/report?require_coverage=payment_succeeded,refunds');
    expect(res.status).toBe(400);
    const error = (await res.json()) as ErrorBody;
    expect(error.code).toBe('bad_request');
    expect(error.details).toHaveLength(1);
    expect(error.details[0]).toMatchObject({ location: 'query', pointer: '/require_coverage' });
    expect(error.details[0]!.message).toContain('"refunds"');
    expect(error.details[0]!.message).toContain('webhook_bad_signature');
  });
});
