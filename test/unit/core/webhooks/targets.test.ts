/**
 *, "the webhook address guard misses IPv4 written as IPv6": every address is judged
 * in its canonical form, whatever way it is written. Failed on main for the IPv6 forms.
 */
import { describe, expect, it } from 'vitest';
import { embeddedIPv4, isForbiddenAddress, refusedTarget, type TargetPolicy } from '../../../../src/core/webhooks/targets.js';

const OWN_PORT = 4321;
const policy: TargetPolicy = {
  allowHosts: [],
  own: () => ({ port: OWN_PORT, hosts: new Set(['localhost', '127.0.0.1', '::1', '192.168.7.9']) }),
};

describe('embeddedIPv4', () => {
  it('finds the IPv4 address in mapped, translated, compatible, NAT64 and 6to4 forms', () => {
    expect(embeddedIPv4('::ffff:169.254.169.254')).toBe('169.254.169.254');
    expect(embeddedIPv4('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:0:0')).toBe('0.0.0.0');
    expect(embeddedIPv4('::ffff:0:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('::169.254.169.254')).toBe('169.254.169.254');
    expect(embeddedIPv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('2002:a9fe:a9fe::1')).toBe('169.254.169.254');
    expect(embeddedIPv4('::1')).toBeUndefined();
    expect(embeddedIPv4('2001:db8::1')).toBeUndefined();
  });
});

describe('the webhook target guard', () => {
  const refusedForms = [
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::ffff:100.100.100.200]/',
    'http://[::ffff:0:0]/',
    'http://[::169.254.169.254]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://0xa9.0xfe.0xa9.0xfe/',
    'http://0251.0376.0251.0376/',
    'http://2852039166/',
    'http://169.254.43518/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ];
  it.each(refusedForms)('refuses %s (link-local, metadata, unspecified, multicast, broadcast in any form)', (url) => {
    expect(refusedTarget(url, policy)).toMatch(/link-local|metadata|unreachable/);
  });

  const ownForms = [
    `http://127.0.0.1:${OWN_PORT}/_sandbox/reset`,
    `http://[::ffff:7f00:1]:${OWN_PORT}/_sandbox/reset`,
    `http://[::ffff:127.0.0.1]:${OWN_PORT}/_sandbox/reset`,
    `http://[::127.0.0.1]:${OWN_PORT}/_sandbox/reset`,
    `http://[64:ff9b::7f00:1]:${OWN_PORT}/_sandbox/reset`,
    `http://0x7f.1:${OWN_PORT}/_sandbox/reset`,
    `http://0177.0.0.1:${OWN_PORT}/_sandbox/reset`,
    `http://2130706433:${OWN_PORT}/_sandbox/reset`,
    `http://127.1.2.3:${OWN_PORT}/_sandbox/reset`,
    `http://[0:0:0:0:0:0:0:1]:${OWN_PORT}/_sandbox/reset`,
    `http://app.localhost:${OWN_PORT}/_sandbox/reset`,
    `http://[::ffff:192.168.7.9]:${OWN_PORT}/_sandbox/reset`,
  ];
  it.each(ownForms)('refuses the sandbox itself written as %s', (url) => {
    expect(refusedTarget(url, policy)).toBe('the sandbox does not send webhooks to itself');
  });

  it('accepts loopback and private receivers on other ports, and public hosts', () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      `http://[::ffff:7f00:1]:${OWN_PORT + 1}/`,
      'http://[::1]:8080/',
      'http://10.0.0.5/hook',
      'https://example.com/webhooks',
      'http://[2001:db8::1]/',
    ]) {
      expect(refusedTarget(url, policy), url).toBeNull();
    }
  });

  it('judges resolved addresses in the same forms', () => {
    expect(refusedTarget('http://metadata.example/', policy, ['::ffff:169.254.169.254'])).toMatch(/link-local/);
    expect(refusedTarget(`http://me.example:${OWN_PORT}/`, policy, ['::ffff:7f00:1'])).toBe('the sandbox does not send webhooks to itself');
    expect(isForbiddenAddress('fd00:ec2::254')).toBe(true);
    expect(isForbiddenAddress('192.168.1.1')).toBe(false);
  });

  it('refuses the Azure and Oracle metadata addresses, local-use NAT64 and site-local IPv6, in any form', () => {
    for (const address of [
      '168.63.129.16',
      '::ffff:168.63.129.16',
      '192.0.0.192',
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b:1:ffff::1',
      'fec0::1',
      'feff:ffff::1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
      expect(refusedTarget(`http://${address.includes(':') ? `[${address}]` : address}/`, policy), address).toMatch(/link-local/);
    }
    for (const address of ['168.63.129.15', '192.0.0.193', '64:ff9b:2::1', 'fc00::1']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });
});
