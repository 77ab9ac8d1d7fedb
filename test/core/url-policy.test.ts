import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isSecureUrl } from '../../src/core/url-policy.js';

describe('isLoopbackHost', () => {
  it.each([
    '127.0.0.1',
    '127.255.10.1',
    '127.0.0.0',
    'localhost',
    'LOCALHOST',
    'localhost.',
    'shop.localhost',
    'a.b.Localhost',
    '[::1]',
    '::1',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '128.0.0.1',
    '127.0.0.256',
    '127.0.0.01',
    '127.1',
    '10.0.0.1',
    '0.0.0.0',
    'localhost.evil.example',
    'evillocalhost',
    'localhost-evil.example',
    '127.0.0.1.nip.io',
    '[::2]',
    '[::ffff:127.0.0.1]',
    '',
  ])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('isSecureUrl', () => {
  it.each([
    'https://op.example.org/',
    'https://127.0.0.1/',
    'http://127.0.0.1:8080/cb',
    'http://127.1.2.3/',
    'http://localhost:3000/',
    'http://shop.localhost/',
    'http://[::1]:4000/',
    // WHATWG URL normalizes 127.1 and 0x7f.0.0.1 to 127.0.0.1 before the check sees them.
    'http://127.1/',
    'http://0x7f.0.0.1/',
  ])('%s is allowed', (url) => {
    expect(isSecureUrl(new URL(url))).toBe(true);
  });

  it.each([
    'http://op.example.org/',
    'http://localhost.evil.example/',
    'http://10.0.0.1/',
    'http://[::ffff:7f00:1]/',
    'ftp://localhost/',
    'ws://localhost/',
    'file:///etc/passwd',
    'javascript:alert(1)',
  ])('%s is refused', (url) => {
    expect(isSecureUrl(new URL(url))).toBe(false);
  });
});

// Every part of the package applies the one rule: the same URLs pass and fail everywhere.
describe('every part applies the same rule', async () => {
  const { checkIssuerOption } = await import('../../src/rp/discovery.js');
  const { resolveOptions } = await import('../../src/docs-site/options.js');
  const { HintFeed } = await import('../../src/hints/feed.js');
  const parts: Record<string, (url: string) => unknown> = {
    'RP issuer': (url) => checkIssuerOption(url),
    'docs-site baseUrl with auth': (url) =>
      resolveOptions({ baseUrl: url, auth: { username: 'u', applicationPassword: 'p p p' } }),
    'hint feed source': (url) => new HintFeed({ sources: [url] }),
  };
  const urls = [
    'https://site.example.org',
    'http://127.0.0.1:8080',
    'http://127.0.0.2:8080',
    'http://localhost:3000',
    'http://shop.localhost:3000',
    'http://[::1]:4000',
    'http://site.example.org',
    'http://localhost.evil.example',
    'http://10.0.0.1',
  ];
  for (const [part, check] of Object.entries(parts)) {
    it.each(urls)(`${part}: %s follows isSecureUrl`, (url) => {
      if (isSecureUrl(new URL(url))) expect(() => check(url)).not.toThrow();
      else expect(() => check(url)).toThrow(/https/);
    });
  }
});
