/**
 * The start banner names every page a merchant opens (API, panel, docs, reference) at an address
 * they can open: on all interfaces (0.0.0.0, ::) it says so and prints loopback, not 0.0.0.0.
 */
import { describe, expect, it } from 'vitest';
import { banner } from '../../../src/cli.js';
import { resolveOptions } from '../../../src/core/config.js';

describe('the start banner', () => {
  it('lists the docs and the API reference beside the API and the panel', () => {
    const text = banner('http://127.0.0.1:4010', resolveOptions({}), []);
    expect(text).toContain('  Docs        http://127.0.0.1:4010/docs\n');
    expect(text).toContain('  Reference   http://127.0.0.1:4010/reference\n');
    expect(text).not.toContain('all interfaces');
  });

  it('on 0.0.0.0 prints a loopback address and says it listens on all interfaces', () => {
    const text = banner('http://0.0.0.0:4010', resolveOptions({ host: '0.0.0.0' }), []);
    expect(text).not.toContain('0.0.0.0:4010');
    expect(text).toContain('Listening   on all interfaces (0.0.0.0), port 4010');
    expect(text).toContain('  API         http://127.0.0.1:4010/v4\n');
    expect(text).toContain('  Docs        http://127.0.0.1:4010/docs\n');
  });

  it('on :: prints the IPv6 loopback', () => {
    const text = banner('http://:::4011', resolveOptions({ host: '::' }), []);
    expect(text).toContain('Listening   on all interfaces (::), port 4011');
    expect(text).toContain('  Panel       http://[::1]:4011/\n');
  });
});
