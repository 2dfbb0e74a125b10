/**
 * The verbs' arguments: the sandbox's address (`--sandbox-url`, then `PAYMENT_SANDBOX_URL`, then
 * `PAYMENT_SANDBOX_PORT`), each verb's operands and options, and usage errors as exit 2 with one
 * line, before anything is called.
 */
import { describe, expect, it } from 'vitest';
import { parseVerb, type VerbOutput } from '../../../src/features/verbs/index.js';

function parse(verb: Parameters<typeof parseVerb>[0], argv: string[], env: NodeJS.ProcessEnv = {}) {
  const written = { out: '', err: '' };
  const output: VerbOutput = { out: (t) => void (written.out += t), err: (t) => void (written.err += t) };
  return { result: parseVerb(verb, argv, env, output), ...written };
}

describe('the verbs find the sandbox as every command does', () => {
  it('--sandbox-url, else PAYMENT_SANDBOX_URL, else the port of PAYMENT_SANDBOX_PORT, else 4010', () => {
    const env = { PAYMENT_SANDBOX_URL: 'http://sandbox.test:9000/', PAYMENT_SANDBOX_PORT: '5000' };
    expect(parse('settle', ['t1', '--sandbox-url', 'http://127.0.0.1:7000'], env).result).toMatchObject({
      origin: 'http://127.0.0.1:7000',
    });
    expect(parse('settle', ['t1'], env).result).toMatchObject({ origin: 'http://sandbox.test:9000' });
    expect(parse('settle', ['t1'], { PAYMENT_SANDBOX_PORT: '5000' }).result).toMatchObject({ origin: 'http://127.0.0.1:5000' });
    expect(parse('settle', ['t1']).result).toMatchObject({ origin: 'http://127.0.0.1:4010', format: 'text' });
    const bad = parse('deliveries', ['--sandbox-url', 'ftp://x']);
    expect(bad.result).toBe(2);
    expect(bad.err).toContain('invalid --sandbox-url "ftp://x"');
  });

  it('the admin token from --admin-token, else PAYMENT_SANDBOX_ADMIN_TOKEN', () => {
    expect(parse('tail', [], { PAYMENT_SANDBOX_ADMIN_TOKEN: 'env-token' }).result).toMatchObject({ adminToken: 'env-token' });
    expect(parse('tail', ['--admin-token', 'flag'], { PAYMENT_SANDBOX_ADMIN_TOKEN: 'env-token' }).result).toMatchObject({
      adminToken: 'flag',
    });
  });
});

describe("each verb's arguments", () => {
  it('settle, fail and refund take one transaction id; refund an optional whole --amount', () => {
    expect(parse('fail', ['t1']).result).toMatchObject({ verb: 'fail', transactionId: 't1' });
    expect(parse('refund', ['t1', '--amount', '250', '--format', 'json']).result).toMatchObject({
      transactionId: 't1',
      amount: 250,
      format: 'json',
    });
    expect(parse('refund', ['t1']).result).not.toHaveProperty('amount');
    for (const argv of [
      [],
      ['t1', 't2'],
      ['t1', '--amount', '0'],
      ['t1', '--amount', '1.5'],
      ['t1', '--amount', 'ten'],
      ['t1', '--format', 'xml'],
    ]) {
      const run = parse('refund', argv);
      expect(run.result, argv.join(' ')).toBe(2);
      expect(run.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
  });

  it('trigger takes one of its events, --account and --webhook-url', () => {
    expect(
      parse('trigger', ['subscription.past_due', '--account', 'acc_1', '--webhook-url', 'http://127.0.0.1:3000/webhooks']).result,
    ).toMatchObject({
      event: 'subscription.past_due',
      accountId: 'acc_1',
      webhookUrl: 'http://127.0.0.1:3000/webhooks',
    });
    const unknown = parse('trigger', ['payment.exploded']);
    expect(unknown.result).toBe(2);
    expect(unknown.err).toContain('payment.succeeded');
    expect(parse('trigger', []).result).toBe(2);
    expect(parse('trigger', ['payment.failed', '--webhook-url', 'not a url']).result).toBe(2);
  });

  it('deliveries takes --limit 1 to 100 and --account; tail --account and --format', () => {
    expect(parse('deliveries', ['--limit', '100', '--account', 'acc_1']).result).toMatchObject({ limit: 100, accountId: 'acc_1' });
    expect(parse('deliveries', ['--limit', '0']).result).toBe(2);
    expect(parse('deliveries', ['--limit', '101']).result).toBe(2);
    expect(parse('deliveries', ['extra']).result).toBe(2);
    expect(parse('tail', ['--account', 'acc_1', '--format', 'json']).result).toMatchObject({
      verb: 'tail',
      accountId: 'acc_1',
      format: 'json',
    });
    expect(parse('tail', ['--amount', '5']).result).toBe(2);
  });

  it('--help prints the usage and ends with 0', () => {
    const help = parse('trigger', ['--help']);
    expect(help.result).toBe(0);
    expect(help.out).toContain('--sandbox-url');
    expect(help.out).toContain('subscription.renewed');
  });
});
