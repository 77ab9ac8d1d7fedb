import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';
import { REDIRECT_URI } from '../helpers/op-mock.js';
import { newClient, rejection, useOp } from '../helpers/setup.js';

const { op } = useOp();

function incoming(method: string, url: string, headers: Record<string, string> = {}, body?: string) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = url;
  req.headers = headers;
  if (body !== undefined) {
    req.push(body);
    req.push(null);
  }
  return req;
}

async function codeCallback(responseType: 'code' | 'id_token' = 'code') {
  const client = await newClient({ responseType });
  const { url, state, setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
  const callback = new URL(await op.authorize(url));
  // What the shopper's browser sends back: the binding cookie the start route set.
  const cookie = (setCookie ?? '').split(';')[0] as string;
  return { client, callback, state, cookie };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('validateCallback input forms', () => {
  it('a URL object', async () => {
    const { client, callback } = await codeCallback();
    await expect(client.validateCallback(callback)).resolves.toMatchObject({ affiliation: 'student' });
  });

  it('a path such as req.url', async () => {
    const { client, callback } = await codeCallback();
    await expect(client.validateCallback(`${callback.pathname}${callback.search}`)).resolves.toBeTruthy();
  });

  it('a Web Request GET', async () => {
    const { client, callback, cookie } = await codeCallback();
    await expect(
      client.validateCallback(new Request(callback, { headers: { cookie } })),
    ).resolves.toBeTruthy();
  });

  it('a Web Request POST shaped like response_mode=form_post', async () => {
    const { client, callback, cookie } = await codeCallback();
    const request = new Request(REDIRECT_URI, {
      method: 'POST',
      headers: { ...FORM, cookie },
      body: callback.searchParams.toString(),
    });
    await expect(client.validateCallback(request)).resolves.toBeTruthy();
  });

  it('the relay POST of an id_token fragment', async () => {
    const { client, callback, cookie } = await codeCallback('id_token');
    expect(callback.search).toBe('');
    const request = new Request(REDIRECT_URI, {
      method: 'POST',
      headers: { ...FORM, cookie },
      body: callback.hash.slice(1),
    });
    await expect(client.validateCallback(request)).resolves.toMatchObject({ affiliation: 'student' });
  });

  it('a URL with the id_token in its fragment', async () => {
    const { client, callback } = await codeCallback('id_token');
    await expect(client.validateCallback(callback.href)).resolves.toBeTruthy();
  });

  it('an IncomingMessage GET', async () => {
    const { client, callback, cookie } = await codeCallback();
    const req = incoming('GET', `${callback.pathname}${callback.search}`, { cookie });
    await expect(client.validateCallback(req)).resolves.toBeTruthy();
  });

  it('an IncomingMessage POST with an unread body', async () => {
    const { client, callback, cookie } = await codeCallback('id_token');
    const req = incoming('POST', '/callback', { ...FORM, cookie }, callback.hash.slice(1));
    await expect(client.validateCallback(req)).resolves.toBeTruthy();
  });

  it('an IncomingMessage POST with { body } already parsed', async () => {
    const { client, callback, cookie } = await codeCallback('id_token');
    const body = Object.fromEntries(new URLSearchParams(callback.hash.slice(1)));
    const req = incoming('POST', '/callback', { ...FORM, cookie });
    await expect(client.validateCallback(req, { body })).resolves.toBeTruthy();
  });

  it('an IncomingMessage POST with a raw { body } string', async () => {
    const { client, callback, cookie } = await codeCallback('id_token');
    const req = incoming('POST', '/callback', { ...FORM, cookie });
    await expect(client.validateCallback(req, { body: callback.hash.slice(1) })).resolves.toBeTruthy();
  });

  it('an IncomingMessage POST whose req.body an Express parser set', async () => {
    const { client, callback, cookie } = await codeCallback('id_token');
    const req = Object.assign(incoming('POST', '/callback', { ...FORM, cookie }), {
      body: Object.fromEntries(new URLSearchParams(callback.hash.slice(1))),
    });
    await expect(client.validateCallback(req)).resolves.toBeTruthy();
  });

  it('rebuilds the token request redirect_uri from the configuration (TLS-terminating proxy)', async () => {
    const { client, callback } = await codeCallback();
    const seenByApp = `http://internal:8080${callback.pathname}${callback.search}`;
    await expect(client.validateCallback(seenByApp)).resolves.toBeTruthy();
    expect(op.lastTokenRequest?.body.get('redirect_uri')).toBe(REDIRECT_URI);
  });
});

describe('callbacks without usable parameters', () => {
  it.each([
    ['a URL string', () => REDIRECT_URI],
    ['a Request', () => new Request(REDIRECT_URI)],
    ['an IncomingMessage', () => incoming('GET', '/callback')],
  ])('a GET without parameters as %s → fragment_relay_required', async (_name, make) => {
    const client = await newClient();
    const error = await rejection(client.validateCallback(make() as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('fragment_relay_required');
  });

  it('an empty POST → missing_parameters', async () => {
    const client = await newClient();
    const error = await rejection(
      client.validateCallback(new Request(REDIRECT_URI, { method: 'POST', headers: FORM, body: '' })),
    );
    expect(error.code).toBe('missing_parameters');
  });

  it('a POST that is not a form → missing_parameters', async () => {
    const client = await newClient();
    const error = await rejection(
      client.validateCallback(new Request(REDIRECT_URI, { method: 'POST', body: '{"code":"x"}' })),
    );
    expect(error.code).toBe('missing_parameters');
  });

  it('no state → missing_parameters', async () => {
    const client = await newClient();
    const error = await rejection(client.validateCallback(`${REDIRECT_URI}?code=abc`));
    expect(error.code).toBe('missing_parameters');
  });

  it('no code on the code flow → missing_parameters', async () => {
    const { client, state } = await codeCallback();
    const error = await rejection(client.validateCallback(`${REDIRECT_URI}?state=${state}`));
    expect(error.code).toBe('missing_parameters');
  });

  it('no id_token on the id_token flow → missing_parameters', async () => {
    const { client, state } = await codeCallback('id_token');
    const error = await rejection(client.validateCallback(`${REDIRECT_URI}#state=${state}`));
    expect(error.code).toBe('missing_parameters');
  });

  it('an unknown state → unknown_state', async () => {
    const client = await newClient();
    const error = await rejection(client.validateCallback(`${REDIRECT_URI}?code=abc&state=never-issued`));
    expect(error.code).toBe('unknown_state');
  });

  it('a replayed callback → replayed_transaction, and the token endpoint is not called twice', async () => {
    const { client, callback } = await codeCallback();
    await client.validateCallback(callback);
    const tokens = op.counts.token;
    const error = await rejection(client.validateCallback(callback));
    expect(error.code).toBe('replayed_transaction');
    expect(op.counts.token).toBe(tokens);
  });

  it('two state parameters → state_mismatch', async () => {
    const { client, callback } = await codeCallback();
    const error = await rejection(client.validateCallback(`${callback.href}&state=other`));
    expect(error.code).toBe('state_mismatch');
  });

  it('an iss parameter of another issuer → issuer_mismatch', async () => {
    const { client, callback } = await codeCallback();
    callback.searchParams.set('iss', 'https://evil.example');
    const error = await rejection(client.validateCallback(callback));
    expect(error.code).toBe('issuer_mismatch');
  });
});

describe('OP errors on the redirect', () => {
  const cases = [
    ['query', 'with state'],
    ['query', 'without state'],
    ['fragment', 'with state'],
    ['fragment', 'without state'],
  ] as const;
  it.each(cases)('in the %s, %s → ProviderError', async (where, withState) => {
    const { client, state } = await codeCallback();
    const params = new URLSearchParams({ error: 'access_denied', error_description: 'entity_id error' });
    if (withState === 'with state') params.set('state', state);
    const url = where === 'query' ? `${REDIRECT_URI}?${params}` : `${REDIRECT_URI}#${params}`;
    const error = (await rejection(client.validateCallback(url))) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.error).toBe('access_denied');
    expect(error.code).toBe('access_denied');
    expect(error.description).toBe('entity_id error');
    expect(error.source).toBe('authorization');
    expect(error.state).toBe(withState === 'with state' ? state : undefined);
  });

  it.each(['unauthorised_client', 'unauthorized_client'])(
    '%s → ProviderError with that code',
    async (code) => {
      const client = await newClient();
      const error = (await rejection(
        client.validateCallback(`${REDIRECT_URI}#error=${code}`),
      )) as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.error).toBe(code);
    },
  );

  it('consumes the transaction of an error with state', async () => {
    const { client, callback, state } = await codeCallback();
    await rejection(client.validateCallback(`${REDIRECT_URI}?error=access_denied&state=${state}`));
    const error = await rejection(client.validateCallback(callback));
    expect(error.code).toBe('replayed_transaction');
  });

  it('an error in the relay POST', async () => {
    const { client, state } = await codeCallback();
    const body = new URLSearchParams({
      error: 'invalid_scope',
      error_description: 'Requested validation not allowed.',
      state,
    });
    const error = (await rejection(
      client.validateCallback(
        new Request(REDIRECT_URI, { method: 'POST', headers: FORM, body: body.toString() }),
      ),
    )) as ProviderError;
    expect(error.error).toBe('invalid_scope');
    expect(error.description).toBe('Requested validation not allowed.');
    expect(error.state).toBe(state);
  });
});

describe('token and userinfo endpoints', () => {
  it.each([
    [400, 'invalid_grant', 'replayed_transaction'],
    [401, 'invalid_client', undefined],
    [400, 'invalid_request', 'replayed_transaction'],
  ])(
    'token endpoint HTTP %i %s → ProviderError from the token endpoint (a refused code: %s)',
    async (status, code, as) => {
      const { client, callback } = await codeCallback();
      op.knobs = { tokenError: { status, body: { error: code, error_description: 'no' } } };
      const thrown = await rejection(client.validateCallback(callback));
      // The service refusing the code of a transaction that checked out is a callback handled twice.
      if (as !== undefined) expect((thrown as ValidationError).code).toBe(as);
      const error = (as === undefined ? thrown : thrown.cause) as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.error).toBe(code);
      expect(error.source).toBe('token');
      expect(error.status).toBe(status);
    },
  );

  it('a wrong client secret at the token endpoint → invalid_client', async () => {
    const client = await newClient({ clientSecret: 'wrong-secret-value' });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const error = (await rejection(client.validateCallback(await op.authorize(url)))) as ProviderError;
    expect(error.error).toBe('invalid_client');
  });

  it('a token endpoint answering HTML → TransportError', async () => {
    const { client, callback } = await codeCallback();
    op.knobs = { tokenError: { status: 500, body: {} } };
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(TransportError);
  });

  it('a token response without an ID token is refused', async () => {
    const { client, callback } = await codeCallback();
    op.knobs = { tokenResponse: (b) => delete b.id_token };
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(ValidationError);
  });

  it('sends client_secret_basic by default, with the PKCE verifier', async () => {
    const { client, callback } = await codeCallback();
    await client.validateCallback(callback);
    expect(op.lastTokenRequest?.headers.get('authorization')).toMatch(/^Basic /);
    expect(op.lastTokenRequest?.body.has('client_secret')).toBe(false);
    expect(op.lastTokenRequest?.body.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('sends client_secret_post when configured', async () => {
    const client = await newClient({ tokenEndpointAuthMethod: 'client_secret_post' });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    await client.validateCallback(await op.authorize(url));
    expect(op.lastTokenRequest?.headers.get('authorization')).toBeNull();
    expect(op.lastTokenRequest?.body.has('client_secret')).toBe(true);
  });

  it('fetches userinfo only when userinfo claims were requested', async () => {
    const client = await newClient();
    const before = op.counts.userinfo;
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    await client.validateCallback(await op.authorize(url));
    expect(op.counts.userinfo).toBe(before);
    const second = await client.createAuthorizationRequest({
      affiliation: 'student',
      claims: { userinfo: { reuse_detection: null } },
    });
    const result = await client.validateCallback(await op.authorize(second.url));
    expect(op.counts.userinfo).toBe(before + 1);
    expect(result.userinfo?.sub).toBe(result.subject);
    expect(result.reuseDetection).toEqual(['ui-rd-1']);
  });

  async function userinfoFlow() {
    const client = await newClient();
    const { url } = await client.createAuthorizationRequest({
      affiliation: 'student',
      claims: { userinfo: { reuse_detection: null } },
    });
    return client.validateCallback(await op.authorize(url));
  }

  it('a userinfo subject other than the ID token → userinfo_subject_mismatch', async () => {
    op.knobs = { userinfo: (c) => (c.sub = 'somebody-else') };
    const error = await rejection(userinfoFlow());
    expect(error.code).toBe('userinfo_subject_mismatch');
  });

  it('userinfo invalid_token in WWW-Authenticate → ProviderError from userinfo', async () => {
    op.knobs = { userinfoError: { status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' } };
    const error = (await rejection(userinfoFlow())) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.error).toBe('invalid_token');
    expect(error.source).toBe('userinfo');
  });

  it('userinfo invalid_token in a JSON body → ProviderError from userinfo', async () => {
    op.knobs = {
      userinfoError: { status: 401, body: { error: 'invalid_token', error_description: 'expired' } },
    };
    const error = (await rejection(userinfoFlow())) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.error).toBe('invalid_token');
    expect(error.source).toBe('userinfo');
    expect(error.status).toBe(401);
  });
});

describe('odd callbacks', () => {
  it('a Request whose body was already read → missing_parameters, not a TypeError', async () => {
    const { client, callback } = await codeCallback('id_token');
    const request = new Request(REDIRECT_URI, {
      method: 'POST',
      headers: FORM,
      body: callback.hash.slice(1),
    });
    await request.text();
    const error = await rejection(client.validateCallback(request));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('missing_parameters');
  });

  it('an empty error parameter is still a ProviderError', async () => {
    const client = await newClient();
    const error = (await rejection(
      client.validateCallback(`${REDIRECT_URI}?error=&error_description=`),
    )) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.error).toBe('unknown_error');
    expect(error.description).toBeUndefined();
  });

  it('an error value with control characters and markup is cleaned and bounded', async () => {
    const client = await newClient();
    const long = 'x'.repeat(1000);
    const error = (await rejection(
      client.validateCallback(`${REDIRECT_URI}?error=access_denied%0A${long}&error_description=%00bad%0D`),
    )) as ProviderError;
    expect(error.error.length).toBeLessThanOrEqual(100);
    expect(error.error).not.toMatch(/[\n\r\0]/);
    expect(error.description).toBe(' bad ');
  });
});
