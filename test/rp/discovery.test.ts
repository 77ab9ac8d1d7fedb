import { describe, expect, it } from 'vitest';
import { discoveryUrl, isLoopbackHost, issuersMatch, usableAlgorithms } from '../../src/rp/discovery.js';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.255.10.1', 'localhost', 'LOCALHOST', '[::1]', '::1'])(
    '%s is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
  it.each([
    '128.0.0.1',
    '127.0.0.256',
    '10.0.0.1',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    '[::2]',
    '0.0.0.0',
  ])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('issuersMatch', () => {
  it.each([
    ['https://op.example.org', 'https://op.example.org', true],
    ['https://op.example.org', 'https://op.example.org/', true],
    ['https://op.example.org/', 'https://op.example.org', true],
    ['https://op.example.org', 'https://op.example.org//', false],
    ['https://op.example.org/a', 'https://op.example.org/a/', true],
    ['https://op.example.org', 'https://OP.example.org', false],
    ['https://op.example.org', 'http://op.example.org', false],
  ])('%s vs %s → %s', (a, b, expected) => {
    expect(issuersMatch(a, b)).toBe(expected);
  });
});

describe('discoveryUrl', () => {
  it('appends the well-known path once, with or without a trailing slash', () => {
    expect(discoveryUrl('https://op.example.org')).toBe(
      'https://op.example.org/.well-known/openid-configuration',
    );
    expect(discoveryUrl('https://op.example.org/')).toBe(
      'https://op.example.org/.well-known/openid-configuration',
    );
    expect(discoveryUrl('https://op.example.org/oidc')).toBe(
      'https://op.example.org/oidc/.well-known/openid-configuration',
    );
  });
});

describe('usableAlgorithms', () => {
  it('drops none and symmetric algorithms, keeps the advertised order', () => {
    expect(
      usableAlgorithms({ id_token_signing_alg_values_supported: ['none', 'HS256', 'ES256', 'RS256'] }),
    ).toEqual(['ES256', 'RS256']);
  });
});
