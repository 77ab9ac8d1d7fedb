/**
 * How token and userinfo endpoint error answers become our errors: the token endpoint states its
 * error in the JSON body (RFC 6749 §5.2) and may add a `Basic` challenge without an `error`
 * parameter; the userinfo endpoint states it in a `Bearer` challenge (RFC 6750 §3) or the body.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { ProviderError } from '../../src/rp/errors.js';
import { CLIENT_ID, CLIENT_SECRET, TOKEN_ENDPOINT, USERINFO_ENDPOINT } from '../helpers/op-mock.js';
import { newClient, rejection, useOp } from '../helpers/setup.js';

const { op, server } = useOp();

const WRONG_SECRET = 'wrong-secret-Hq4r7Yp2Lx';

function answer(status: number, body?: unknown, wwwAuthenticate?: string): Response {
  const headers: Record<string, string> = {};
  if (wwwAuthenticate !== undefined) headers['www-authenticate'] = wwwAuthenticate;
  return body === undefined
    ? new HttpResponse(null, { status, headers })
    : HttpResponse.json(body, { status, headers });
}

async function codeFlow(clientSecret = CLIENT_SECRET, userinfo = false) {
  const client = await newClient({ clientSecret });
  const { url } = await client.createAuthorizationRequest({
    affiliation: 'student',
    ...(userinfo ? { claims: { userinfo: { reuse_detection: null } } } : {}),
  });
  const callback = await op.authorize(url);
  return rejection(client.validateCallback(callback));
}

describe('token endpoint errors', () => {
  it('a wrong secret with client_secret_basic: 401 + Basic challenge + JSON invalid_client → invalid_client', async () => {
    let checked = 0;
    server.use(
      http.post(TOKEN_ENDPOINT, ({ request }) => {
        const [id, secret] = Buffer.from(
          (request.headers.get('authorization') ?? '').replace(/^Basic /, ''),
          'base64',
        )
          .toString()
          .split(':')
          .map(decodeURIComponent);
        checked++;
        if (id === CLIENT_ID && secret === CLIENT_SECRET) return undefined;
        return answer(401, { error: 'invalid_client', error_description: 'bad client' }, 'Basic realm="x"');
      }),
    );
    const error = (await codeFlow(WRONG_SECRET)) as ProviderError;
    expect(checked).toBe(1);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      error: 'invalid_client',
      code: 'invalid_client',
      description: 'bad client',
      source: 'token',
      status: 401,
    });
    expect(error.message).not.toContain(WRONG_SECRET);
  });

  it.each([
    ['a Basic challenge and no body', undefined, 'Basic realm="x"'],
    ['a Basic challenge and a body that is not JSON', 'Unauthorized', 'Basic realm="x"'],
    ['a Basic challenge and a body claiming invalid_token', { error: 'invalid_token' }, 'Basic realm="x"'],
    ['no challenge and a body claiming invalid_token', { error: 'invalid_token' }, undefined],
  ])('401 with %s → invalid_client, never invalid_token', async (_name, body, challenge) => {
    server.use(
      http.post(TOKEN_ENDPOINT, () =>
        typeof body === 'string'
          ? new HttpResponse(body, { status: 401, headers: { 'www-authenticate': challenge ?? '' } })
          : answer(401, body, challenge),
      ),
    );
    const error = (await codeFlow()) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ error: 'invalid_client', source: 'token', status: 401 });
  });

  it('the JSON body wins over a challenge that carries an error parameter', async () => {
    server.use(
      http.post(TOKEN_ENDPOINT, () =>
        answer(
          400,
          { error: 'invalid_grant', error_description: 'code used' },
          'Basic error="invalid_request"',
        ),
      ),
    );
    // A refused code is reported as replayed_transaction, with the service's answer as its cause.
    const error = (await codeFlow()).cause as ProviderError;
    expect(error).toMatchObject({ error: 'invalid_grant', description: 'code used', status: 400 });
  });

  it('a challenge error parameter is used when the body states none', async () => {
    server.use(
      http.post(TOKEN_ENDPOINT, () =>
        answer(401, undefined, 'Basic realm="x", error="invalid_client", error_description="unknown client"'),
      ),
    );
    const error = (await codeFlow()) as ProviderError;
    expect(error).toMatchObject({
      error: 'invalid_client',
      description: 'unknown client',
      source: 'token',
      status: 401,
    });
  });

  it('a 400 claiming invalid_token is no ProviderError (not a token-endpoint error) but a TransportError', async () => {
    server.use(http.post(TOKEN_ENDPOINT, () => answer(400, { error: 'invalid_token' })));
    const error = await codeFlow();
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'http_status', status: 400 });
  });

  it('a 500 without an error body → TransportError with the status', async () => {
    server.use(http.post(TOKEN_ENDPOINT, () => answer(500)));
    const error = await codeFlow();
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'http_status', status: 500 });
  });

  it('a description echoing the secret or the code is redacted', async () => {
    let code = '';
    server.use(
      http.post(TOKEN_ENDPOINT, async ({ request }) => {
        code = new URLSearchParams(await request.text()).get('code') ?? '';
        return answer(
          401,
          { error: 'invalid_client', error_description: `secret ${WRONG_SECRET} code ${code}` },
          'Basic realm="x"',
        );
      }),
    );
    const error = (await codeFlow(WRONG_SECRET)) as ProviderError;
    expect(error.error).toBe('invalid_client');
    expect(code).not.toBe('');
    const shown = `${error.message} ${error.description} ${String((error.cause as Error | undefined)?.message)}`;
    expect(shown).not.toContain(WRONG_SECRET);
    expect(shown).not.toContain(code);
  });
});

describe('userinfo endpoint errors', () => {
  it('401 with a Bearer challenge carrying error="invalid_token" → invalid_token', async () => {
    server.use(
      http.get(USERINFO_ENDPOINT, () =>
        answer(401, undefined, 'Bearer realm="x", error="invalid_token", error_description="expired"'),
      ),
    );
    const error = (await codeFlow(CLIENT_SECRET, true)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      error: 'invalid_token',
      description: 'expired',
      source: 'userinfo',
      status: 401,
    });
  });

  it('the challenge error wins over the body', async () => {
    server.use(
      http.get(USERINFO_ENDPOINT, () =>
        answer(403, { error: 'invalid_request' }, 'Bearer error="insufficient_scope"'),
      ),
    );
    const error = (await codeFlow(CLIENT_SECRET, true)) as ProviderError;
    expect(error).toMatchObject({ error: 'insufficient_scope', source: 'userinfo', status: 403 });
  });

  it('a Bearer challenge without an error parameter: the JSON body states the error', async () => {
    server.use(
      http.get(USERINFO_ENDPOINT, () =>
        answer(400, { error: 'invalid_request', error_description: 'malformed' }, 'Bearer realm="x"'),
      ),
    );
    const error = (await codeFlow(CLIENT_SECRET, true)) as ProviderError;
    expect(error).toMatchObject({
      error: 'invalid_request',
      description: 'malformed',
      source: 'userinfo',
      status: 400,
    });
  });

  it('a body-only error (no challenge)', async () => {
    server.use(http.get(USERINFO_ENDPOINT, () => answer(401, { error: 'invalid_token' })));
    const error = (await codeFlow(CLIENT_SECRET, true)) as ProviderError;
    expect(error).toMatchObject({ error: 'invalid_token', source: 'userinfo', status: 401 });
  });

  it('401 with a Bearer challenge and nothing else → invalid_token (the access token was refused)', async () => {
    server.use(http.get(USERINFO_ENDPOINT, () => answer(401, undefined, 'Bearer realm="x"')));
    const error = (await codeFlow(CLIENT_SECRET, true)) as ProviderError;
    expect(error).toMatchObject({ error: 'invalid_token', source: 'userinfo', status: 401 });
  });

  it('a 500 without an error → TransportError with the status', async () => {
    server.use(http.get(USERINFO_ENDPOINT, () => answer(500)));
    const error = await codeFlow(CLIENT_SECRET, true);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'http_status', status: 500 });
  });
});
