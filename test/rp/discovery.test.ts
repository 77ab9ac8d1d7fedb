import { describe, expect, it } from 'vitest';
import { discoveryUrl, issuersMatch, usableAlgorithms } from '../../src/rp/discovery.js';

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
