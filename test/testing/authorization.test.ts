import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import {
  authUrl,
  codeFlow,
  firstHop,
  OTHER_CLIENT_ID,
  pkce,
  REDIRECT_URI,
  resultOf,
  testClients,
  UNIVERSITY,
} from './helpers.js';

let op: RunningTestProvider;

beforeAll(async () => {
  op = await TestProvider.start({ clients: testClients, signingAlg: 'ES256' });
});
afterAll(() => op.close());

async function locationOf(url: string): Promise<string> {
  const response = await firstHop(url);
  expect(response.status).toBe(302);
  const location = response.headers.get('location');
  expect(location).not.toBeNull();
  return location as string;
}

/** A valid request starts a transaction: the user is sent to the institution selection. */
async function expectStarted(url: string): Promise<void> {
  expect(await locationOf(url)).toMatch(new RegExp(`^${op.baseUrl}/Service/select\\?tx=`));
}

describe('spec 7.2 row 1: client_id is valid and registered', () => {
  it('sends the user to {error_site}/error-client-id/ for an unknown client_id', async () => {
    expect(await locationOf(authUrl(op, { client_id: 'unknown-shop' }))).toBe(
      `${op.baseUrl}/errors/error-client-id/`,
    );
  });

  it('does so for a missing client_id, and before looking at any other parameter', async () => {
    const url = authUrl(op, { client_id: undefined, redirect_uri: 'https://evil.example/cb', scope: 'bad' });
    expect(await locationOf(url)).toBe(op.endpoints.errorClientId);
  });

  it('serves the default error site pages itself', async () => {
    const response = await fetch(op.endpoints.errorClientId);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('client_id');
  });

  it('uses the errorSite option', async () => {
    const other = await TestProvider.start({
      signingAlg: 'ES256',
      clients: testClients,
      errorSite: 'https://operator.example/',
    });
    try {
      expect(await locationOf(authUrl(other, { client_id: 'x' }))).toBe(
        'https://operator.example/error-client-id/',
      );
      expect(await locationOf(authUrl(other, { redirect_uri: 'https://x.example/' }))).toBe(
        'https://operator.example/error-redirect-uri/',
      );
      // The provider no longer serves the pages of an error site it is not.
      expect((await fetch(`${other.baseUrl}/errors/error-client-id/`)).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('spec 7.2 row 2: redirect_uri is registered', () => {
  it.each([
    ['unregistered', 'https://attacker.example/callback'],
    ['differing only by a trailing slash', `${REDIRECT_URI}/`],
    ['with an extra query', `${REDIRECT_URI}?x=1`],
  ])('sends the user to {error_site}/error-redirect-uri/ for an %s redirect_uri', async (_, uri) => {
    expect(await locationOf(authUrl(op, { redirect_uri: uri }))).toBe(
      `${op.baseUrl}/errors/error-redirect-uri/`,
    );
  });

  it('does so for a missing redirect_uri, before checking the scope', async () => {
    expect(await locationOf(authUrl(op, { redirect_uri: undefined, scope: 'openid' }))).toBe(
      op.endpoints.errorRedirectUri,
    );
  });
});

describe('spec 7.2 row 3 and spec 2.2: scope is valid', () => {
  async function expectInvalidScope(url: string): Promise<void> {
    const { where, params, base } = resultOf(await locationOf(url));
    expect(base).toBe(REDIRECT_URI);
    expect(where).toBe('query');
    expect(params.get('error')).toBe('invalid_scope');
    expect(params.get('error_description')).toBe('Requested validation not allowed.');
    expect(params.get('state')).toBe('state-1');
  }

  it.each([
    ['no affiliation (rule 1)', 'openid persistent'],
    ['two affiliations (rule 1)', 'openid student employee'],
    ['two identifiers (rule 2)', 'openid student persistent transient'],
    ['an empty scope', ''],
    ['a repeated value (rule 4)', 'openid student student'],
    ['faculty and staff as separate values (rule 4)', 'openid faculty staff'],
  ])('refuses %s with invalid_scope to redirect_uri', async (_, scope) => {
    await expectInvalidScope(authUrl(op, { scope }));
  });

  it('refuses a missing scope', async () => {
    await expectInvalidScope(authUrl(op, { scope: undefined }));
  });

  it('refuses a scope value the client is not allowed to request', async () => {
    await expectInvalidScope(authUrl(op, { client_id: OTHER_CLIENT_ID, scope: 'openid employee' }));
    await expectInvalidScope(authUrl(op, { client_id: OTHER_CLIENT_ID, scope: 'openid student persistent' }));
    await expectStarted(authUrl(op, { client_id: OTHER_CLIENT_ID, scope: 'openid student' }));
  });

  it('omits state from the error when none was sent', async () => {
    const { params } = resultOf(await locationOf(authUrl(op, { scope: 'openid', state: undefined })));
    expect(params.get('error')).toBe('invalid_scope');
    expect(params.has('state')).toBe(false);
  });

  it('reads %20 as the separator and %2B as the + of faculty+staff (rule 3)', async () => {
    await expectStarted(authUrl(op, {}, 'openid%20faculty%2Bstaff%20persistent'));
  });

  it('does not silently take a literal + for faculty+staff: it decodes to a space and is refused', async () => {
    await expectInvalidScope(authUrl(op, {}, 'openid%20faculty+staff'));
  });

  it('accepts further scopes, a scope without openid, and each affiliation with each identifier', async () => {
    await expectStarted(authUrl(op, { scope: 'openid member transient profile' }));
    await expectStarted(authUrl(op, { scope: 'employee' }));
    for (const affiliation of ['student', 'faculty+staff', 'employee', 'member']) {
      for (const identifier of ['', ' persistent', ' transient']) {
        await expectStarted(authUrl(op, { scope: `openid ${affiliation}${identifier}` }));
      }
    }
  });

  it('can put invalid_scope in the fragment instead (errorLocations.invalidScope)', async () => {
    const other = await TestProvider.start({
      signingAlg: 'ES256',
      clients: testClients,
      errorLocations: { invalidScope: 'fragment' },
    });
    try {
      const { where, params } = resultOf(await locationOf(authUrl(other, { scope: 'openid' })));
      expect(where).toBe('fragment');
      expect(params.get('error')).toBe('invalid_scope');
    } finally {
      await other.close();
    }
  });
});

describe('spec 7.2 row 4: response_type is supported and valid', () => {
  async function expectUnregistered(url: string, state: string | null = 'state-1'): Promise<void> {
    const { where, params, base } = resultOf(await locationOf(url));
    expect(base).toBe(REDIRECT_URI);
    expect(where).toBe('fragment');
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toBe('Response type is not registered');
    expect(params.get('state')).toBe(state);
  }

  it.each(['token', 'code id_token', 'id_token token', 'CODE', ''])(
    'refuses response_type=%j in the fragment',
    async (responseType) => {
      await expectUnregistered(authUrl(op, { response_type: responseType }));
    },
  );

  it('refuses a missing response_type, and one the client is not registered for', async () => {
    await expectUnregistered(authUrl(op, { response_type: undefined }));
    await expectUnregistered(authUrl(op, { client_id: OTHER_CLIENT_ID, response_type: 'id_token' }));
  });

  it('is checked after the scope (the order of the table)', async () => {
    const { params } = resultOf(await locationOf(authUrl(op, { response_type: 'token', scope: 'openid' })));
    expect(params.get('error')).toBe('invalid_scope');
  });
});

describe('spec 7.2 row 5: unsupported claims are ignored', () => {
  it('starts the transaction and echoes the claims request as sent in requested_claims', async () => {
    const claims = {
      id_token: { email: null, reuse_detection: null },
      userinfo: { phone_number: { essential: true } },
    };
    const { claims: idToken } = await codeFlow(op, { claims });
    expect(idToken.requested_claims).toEqual(claims);
    expect(idToken).not.toHaveProperty('email');
  });

  it('refuses a claims parameter that is not a JSON object with invalid_request', async () => {
    const url = authUrl(op).replace('scope=', `claims=${encodeURIComponent('{not json')}&scope=`);
    const { where, params } = resultOf(await locationOf(url));
    expect(where).toBe('fragment');
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('state')).toBe('state-1');
  });
});

describe('spec 7.2 row 6: the entityID or IdP hint can be resolved', () => {
  it.each([
    ['unknown', 'https://idp.unknown.example/idp'],
    ['stale (old form of a known entityID)', `${UNIVERSITY}/`],
    ['empty', ''],
  ])('refuses an %s aarc_idp_hint with access_denied / entity_id error and the state', async (_, hint) => {
    const { where, params, base } = resultOf(await locationOf(authUrl(op, { aarc_idp_hint: hint })));
    expect(base).toBe(REDIRECT_URI);
    expect(where).toBe('query');
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('error_description')).toBe('entity_id error');
    expect(params.get('state')).toBe('state-1');
  });

  it('skips the institution selection for a valid hint (URL-encoded entityID)', async () => {
    expect(await locationOf(authUrl(op, { aarc_idp_hint: UNIVERSITY }))).toMatch(
      new RegExp(`^${op.baseUrl}/institution/login\\?tx=`),
    );
  });

  it('checks the response type before the hint', async () => {
    const { params } = resultOf(
      await locationOf(authUrl(op, { response_type: 'token', aarc_idp_hint: 'x' })),
    );
    expect(params.get('error_description')).toBe('Response type is not registered');
  });
});

describe('spec 2.1: nonce and PKCE', () => {
  it('requires a nonce (invalid_request in the fragment, with the state)', async () => {
    for (const nonce of [undefined, '']) {
      const { where, params } = resultOf(await locationOf(authUrl(op, { nonce })));
      expect(where).toBe('fragment');
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('error_description')).toMatch(/nonce/);
      expect(params.get('state')).toBe('state-1');
    }
  });

  it('accepts code_challenge_method=S256', async () => {
    await expectStarted(authUrl(op, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
  });

  it.each([
    ['plain', { code_challenge: pkce().verifier, code_challenge_method: 'plain' }],
    ['a challenge without method (plain by default)', { code_challenge: pkce().challenge }],
    ['a method without challenge', { code_challenge_method: 'S256' }],
    ['a malformed challenge', { code_challenge: 'short', code_challenge_method: 'S256' }],
  ])('refuses %s with invalid_request', async (_, params) => {
    const { params: result } = resultOf(await locationOf(authUrl(op, params)));
    expect(result.get('error')).toBe('invalid_request');
    expect(result.get('state')).toBe('state-1');
  });

  it('requires PKCE for the code flow with requirePkce', async () => {
    const strict = await TestProvider.start({ signingAlg: 'ES256', clients: testClients, requirePkce: true });
    try {
      const { params } = resultOf(await locationOf(authUrl(strict)));
      expect(params.get('error')).toBe('invalid_request');
      await expect(locationOf(authUrl(strict, { response_type: 'id_token' }))).resolves.toContain(
        '/Service/select',
      );
    } finally {
      await strict.close();
    }
  });
});

describe('RFC 6749 3.1: a parameter may not be repeated', () => {
  it('a repeated client_id or redirect_uri ends at the error site', async () => {
    expect(await locationOf(`${authUrl(op)}&client_id=shop`)).toBe(op.endpoints.errorClientId);
    expect(await locationOf(`${authUrl(op)}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`)).toBe(
      op.endpoints.errorRedirectUri,
    );
  });

  it.each(['scope=openid%20employee', 'response_type=id_token', 'nonce=n2', 'state=state-2'])(
    'a repeated %s gives invalid_request with the state',
    async (extra) => {
      const { params } = resultOf(await locationOf(`${authUrl(op)}&${extra}`));
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('error_description')).toMatch(/repeated/);
      expect(params.get('state')).toBe('state-1');
    },
  );
});

describe('spec 2.1: other parameters', () => {
  it('ignores parameters it does not know', async () => {
    await expectStarted(`${authUrl(op)}&prompt=login&ui_locales=nl&foo=bar`);
  });

  it('accepts the request as a POSTed form as well (OpenID Connect Core 3.1.2.1)', async () => {
    const query = new URL(authUrl(op)).search.slice(1);
    const response = await fetch(op.endpoints.authorization, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: query,
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toContain('/Service/select?tx=');
  });

  it('sets an HttpOnly session cookie that binds the transaction to the browser', async () => {
    const response = await firstHop(authUrl(op));
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^av_test_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    // Without the cookie the next page refuses to continue.
    const page = await fetch(response.headers.get('location') as string);
    expect(page.status).toBe(400);
  });
});
