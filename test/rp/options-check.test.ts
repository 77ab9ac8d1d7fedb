/** Options mistakes a new user makes (issue 11 items 4 and 7): each refused with what to write instead. */
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { suggestOption } from '../../src/rp/known-options.js';
import { ISSUER } from '../helpers/op-mock.js';
import { newClient, rejection, useOp } from '../helpers/setup.js';

const { op } = useOp();

describe('issuer given as the discovery URL', () => {
  it.each([`${ISSUER}/.well-known/openid-configuration`, `${ISSUER}/.well-known/openid-configuration/`])(
    '%s → OptionsError naming the base URL, before any request',
    async (issuer) => {
      const before = op.counts.discovery;
      const error = await rejection(newClient({}, issuer));
      expect(error).toBeInstanceOf(OptionsError);
      expect(error.message).toContain(`use "${ISSUER}"`);
      expect(error.message).toMatch(/base URL/);
      expect(op.counts.discovery).toBe(before);
    },
  );
});

describe('unknown option names', () => {
  it('discover refuses redirect_uri and suggests redirectUri', async () => {
    const error = await rejection(newClient({ redirect_uri: 'https://shop.example.com/cb' } as never));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error.message).toMatch(/unknown option "redirect_uri"; did you mean "redirectUri"/);
  });

  it('discover refuses a misspelling and a name with no close match', async () => {
    await expect(newClient({ clockTolerance: 5 } as never)).rejects.toThrow(
      /did you mean "clockToleranceSeconds"/,
    );
    await expect(newClient({ timeout: 5 } as never)).rejects.toThrow(/did you mean "timeoutMs"/);
    await expect(newClient({ flavour: 'x' } as never)).rejects.toThrow(
      /unknown option "flavour"; known options: issuer/,
    );
  });

  it('createAuthorizationRequest refuses idp_hint and suggests idpHint', async () => {
    const client = await newClient();
    await expect(
      client.createAuthorizationRequest({
        affiliation: 'student',
        idp_hint: 'https://idp.example.edu',
      } as never),
    ).rejects.toThrow(/unknown option "idp_hint"; did you mean "idpHint"/);
    await expect(
      client.createAuthorizationRequest({ affiliation: 'student', scope: 'email' } as never),
    ).rejects.toThrow(/did you mean "scopes"/);
  });

  it('suggestOption folds case, underscores and dashes, and allows two typos', () => {
    const known = ['redirectUri', 'clientId', 'clientSecret'];
    expect(suggestOption('REDIRECT-URI', known)).toBe('redirectUri');
    expect(suggestOption('clientSecert', known)).toBe('clientSecret');
    expect(suggestOption('somethingElse', known)).toBeUndefined();
  });
});

describe('optional options given as undefined (exactOptionalPropertyTypes idioms)', () => {
  it('are the defaults', async () => {
    const client = await newClient({
      responseType: undefined,
      tokenEndpointAuthMethod: undefined,
      transactions: undefined,
      clockToleranceSeconds: undefined,
      timeoutMs: undefined,
      hints: undefined,
      // (not `fetch`: the helper injects the global fetch so msw sees the requests)
      logger: undefined,
    });
    expect(client.responseType).toBe('code');
    const { url } = await client.createAuthorizationRequest({
      affiliation: 'student',
      identifier: undefined,
      scopes: undefined,
      claims: undefined,
      idpHint: undefined,
    });
    expect(new URL(url).searchParams.get('scope')).toBe('openid student');
  });
});
