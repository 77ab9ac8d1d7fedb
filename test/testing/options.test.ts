import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEST_CLIENT,
  DEFAULT_TEST_INSTITUTIONS,
  OptionsError,
  TestProvider,
} from '../../src/testing.js';

describe('options are checked up front and the bad one is named', () => {
  it.each([
    [{ codeTtlMs: 0 }, /codeTtlMs/],
    [{ idTokenTtlSeconds: -1 }, /idTokenTtlSeconds/],
    [{ serviceName: 'a/b' }, /serviceName/],
    [{ errorSite: 'not a url' }, /errorSite/],
    [{ signingAlg: 'none' as 'RS256' }, /signingAlg/],
    [{ baseUrl: 'ftp://x' }, /baseUrl/],
    [{ errorLocations: { invalidScope: 'hash' as 'query' } }, /errorLocations.invalidScope/],
    [{ clients: [{ clientId: '', clientSecret: 's', redirectUris: ['https://a.example/'] }] }, /clientId/],
    [{ clients: [{ clientId: 'a', clientSecret: 's', redirectUris: [] }] }, /redirectUris/],
    [{ clients: [{ clientId: 'a', clientSecret: 's', redirectUris: ['https://a.example/#x'] }] }, /fragment/],
    [
      {
        clients: [
          {
            clientId: 'a',
            clientSecret: 's',
            redirectUris: ['https://a.example/'],
            allowedClaims: ['email' as 'reuse_detection'],
          },
        ],
      },
      /allowedClaims/,
    ],
    [{ clients: [{ clientId: 'a', clientSecret: 's', redirectUris: ['x'] }] }, /redirectUris/],
    [
      {
        clients: [
          {
            clientId: 'a',
            clientSecret: 's',
            redirectUris: ['https://a.example/'],
            responseTypes: ['token' as 'code'],
          },
        ],
      },
      /responseTypes/,
    ],
    [{ institutions: [{ entityId: 'x', name: '' }] }, /name/],
    [{ subjectSecret: '' }, /subjectSecret/],
  ])('%j', async (options, message) => {
    const error = await TestProvider.start({ ...options, listen: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptionsError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a client_id registered twice', async () => {
    const client = { clientId: 'a', clientSecret: 's', redirectUris: ['https://a.example/'] };
    await expect(TestProvider.start({ listen: false, clients: [client, client] })).rejects.toThrow(
      /registered twice/,
    );
  });

  it('refuses a bad port before listening', async () => {
    await expect(TestProvider.start({ port: 70000 })).rejects.toThrow(/port/);
  });

  it('registers the default client and institutions when none are given', async () => {
    const op = await TestProvider.start({ signingAlg: 'ES256' });
    try {
      expect(op.host).toBe('127.0.0.1');
      expect(op.port).toBeGreaterThan(0);
      const [redirectUri] = DEFAULT_TEST_CLIENT.redirectUris;
      const url = `${op.endpoints.authorization}?client_id=${DEFAULT_TEST_CLIENT.clientId}&redirect_uri=${encodeURIComponent(
        redirectUri as string,
      )}&response_type=code&scope=openid%20student&nonce=n&aarc_idp_hint=${encodeURIComponent(DEFAULT_TEST_INSTITUTIONS[0]?.entityId as string)}`;
      const location = await op.authorize(url);
      expect(location.startsWith(`${redirectUri}?code=`)).toBe(true);
    } finally {
      await op.close();
      await op.close(); // idempotent
    }
    await expect(fetch(op.endpoints.discovery)).rejects.toThrow();
  });
});
