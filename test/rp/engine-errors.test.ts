/**
 * The mapping of openid-client / oauth4webapi errors to the SDK's, one case per `code` and per
 * `cause` shape (issue 17 point 3). The errors are built as openid-client throws them: a
 * `ClientError` with oauth4webapi's `code`, oauth4webapi's error in `cause` and its structured
 * detail in `cause.cause`; `ResponseBodyError` and `WWWAuthenticateChallengeError` as they are.
 * The flows that produce each of them for real are in client-validation, endpoint-errors,
 * code-exchange and client-keys tests.
 */
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { fromEngine, type MapContext } from '../../src/rp/engine-errors.js';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';

const CLIENT_ID = 'shop';
const ctx = (source: MapContext['source']): MapContext => ({
  source,
  clientId: CLIENT_ID,
  secrets: ['s3cret'],
});

/** A ClientError as openid-client makes one (its constructor takes `code` beside `cause`). */
function clientError(code: string | undefined, cause?: unknown): oidc.ClientError {
  const Ctor = oidc.ClientError as unknown as new (
    m: string,
    o: { code?: string; cause?: unknown },
  ) => oidc.ClientError;
  return new Ctor('openid-client', { code, cause });
}

/** As openid-client's errorHandler wraps oauth4webapi's OperationProcessingError. */
function wrapped(code: string, detail?: unknown): oidc.ClientError {
  return clientError(code, Object.assign(new Error('oauth4webapi'), { code, cause: detail }));
}

const claims = { iss: 'https://op.example.org', aud: CLIENT_ID, exp: 2e9, iat: 1.9e9, sub: 'x', nonce: 'n' };

describe.each([
  [
    'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
    { claim: 'iss', expected: 'https://op.example.org', claims },
    'issuer_mismatch',
  ],
  [
    'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
    { claim: 'aud', expected: CLIENT_ID, claims: { ...claims, aud: 'other' } },
    'audience_mismatch',
  ],
  [
    'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
    { claim: 'aud', claims: { ...claims, aud: [CLIENT_ID, 'other'] } },
    'azp_mismatch',
  ],
  ['OAUTH_JWT_CLAIM_COMPARISON_FAILED', { claim: 'azp', expected: CLIENT_ID, claims }, 'azp_mismatch'],
  ['OAUTH_JWT_CLAIM_COMPARISON_FAILED', { claim: 'nonce', expected: 'n', claims }, 'nonce_mismatch'],
  ['OAUTH_JWT_TIMESTAMP_CHECK_FAILED', { claim: 'exp', claims }, 'token_expired'],
  ['OAUTH_JWT_TIMESTAMP_CHECK_FAILED', { claim: 'nbf', claims }, 'iat_invalid'],
  ['OAUTH_INVALID_RESPONSE', { claims: { ...claims, exp: undefined } }, 'token_expired'],
  ['OAUTH_INVALID_RESPONSE', { claims: { ...claims, iat: 'yesterday' } }, 'iat_invalid'],
  ['OAUTH_INVALID_RESPONSE', { claims: { ...claims, iss: undefined } }, 'issuer_mismatch'],
  ['OAUTH_INVALID_RESPONSE', { claims: { ...claims, aud: undefined } }, 'audience_mismatch'],
  ['OAUTH_INVALID_RESPONSE', { claims: { ...claims, sub: 7 } }, 'subject_missing'],
  ['OAUTH_INVALID_RESPONSE', { claims: { ...claims, nonce: undefined } }, 'nonce_mismatch'],
  ['OAUTH_INVALID_RESPONSE', { claims: { ...claims, auth_time: 'now' } }, 'iat_invalid'],
  [
    'OAUTH_INVALID_RESPONSE',
    { header: { alg: 'ES256' }, expected: ['RS256'], reason: 'authorization server metadata' },
    'unsupported_alg',
  ],
  [
    'OAUTH_INVALID_RESPONSE',
    { key: {}, data: new Uint8Array(), signature: new Uint8Array(), algorithm: 'RSASSA-PKCS1-v1_5' },
    'signature_invalid',
  ],
  ['OAUTH_INVALID_RESPONSE', 'not.a-jwt', 'signature_invalid'],
  ['OAUTH_INVALID_RESPONSE', { body: { access_token: 'at', token_type: 'bearer' } }, 'missing_parameters'],
  ['OAUTH_PARSE_ERROR', new SyntaxError('Unexpected token'), 'signature_invalid'],
  [
    'OAUTH_KEY_SELECTION_FAILED',
    { header: { alg: 'RS256', kid: 'k2' }, candidates: [] },
    'signature_invalid',
  ],
  ['OAUTH_UNSUPPORTED_OPERATION', { alg: 'HS256' }, 'unsupported_alg'],
  ['OAUTH_UNSUPPORTED_OPERATION', { header: { alg: 'RS256', crit: ['x'] } }, 'unsupported_alg'],
  ['OAUTH_UNSUPPORTED_OPERATION', 'a.b.c.d.e', 'unsupported_alg'],
])('%s with cause %j (an ID token check)', (code, detail, expected) => {
  it(`→ ValidationError ${expected}`, async () => {
    const error = await fromEngine(wrapped(code, detail), ctx('token'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe(expected);
    // The claims (the subject) are not kept: only the lower error's name and code.
    expect(error.cause).toEqual({ name: 'ClientError', code });
  });
});

describe('token endpoint answers', () => {
  it('OAUTH_RESPONSE_BODY_ERROR → ProviderError with the body error, description redacted', async () => {
    const response = new Response(null, { status: 400 });
    const body = { error: 'invalid_grant', error_description: 'bad code for s3cret' };
    const error = await fromEngine(new oidc.ResponseBodyError('x', { cause: body, response }), ctx('token'));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'invalid_grant', source: 'token', status: 400 });
    expect((error as ProviderError).description).not.toContain('s3cret');
  });

  it('OAUTH_WWW_AUTHENTICATE_CHALLENGE: the JSON body wins for the token endpoint', async () => {
    const response = new Response(JSON.stringify({ error: 'invalid_client' }), { status: 401 });
    const challenges = [{ scheme: 'basic' as const, parameters: { realm: 'token' } }];
    const error = await fromEngine(
      new oidc.WWWAuthenticateChallengeError('x', { cause: challenges, response }),
      ctx('token'),
    );
    expect(error).toMatchObject({ name: 'ProviderError', code: 'invalid_client', status: 401 });
  });

  it('OAUTH_WWW_AUTHENTICATE_CHALLENGE: the challenge error wins for userinfo', async () => {
    const response = new Response(JSON.stringify({ error: 'invalid_request' }), { status: 401 });
    const challenges = [{ scheme: 'bearer' as const, parameters: { error: 'invalid_token' } }];
    const error = await fromEngine(
      new oidc.WWWAuthenticateChallengeError('x', { cause: challenges, response }),
      ctx('userinfo'),
    );
    expect(error).toMatchObject({ name: 'ProviderError', code: 'invalid_token', source: 'userinfo' });
  });

  it('OAUTH_RESPONSE_IS_NOT_CONFORM: a 500 → TransportError http_status', async () => {
    const error = await fromEngine(
      clientError('OAUTH_RESPONSE_IS_NOT_CONFORM', new Response('oops', { status: 500 })),
      ctx('token'),
    );
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'http_status', status: 500 });
  });

  it('OAUTH_RESPONSE_IS_NOT_JSON: a 401 without a JSON body → invalid_client', async () => {
    const error = await fromEngine(
      clientError('OAUTH_RESPONSE_IS_NOT_JSON', new Response('<html>', { status: 401 })),
      ctx('token'),
    );
    expect(error).toMatchObject({ name: 'ProviderError', code: 'invalid_client' });
  });

  it('OAUTH_INVALID_RESPONSE with a token response lacking access_token → TransportError invalid_response', async () => {
    const error = await fromEngine(
      wrapped('OAUTH_INVALID_RESPONSE', { body: { token_type: 'bearer' } }),
      ctx('token'),
    );
    expect(error).toMatchObject({ name: 'TransportError', code: 'invalid_response' });
  });

  it('OAUTH_UNSUPPORTED_OPERATION for the token_type → TransportError invalid_response', async () => {
    const error = await fromEngine(
      wrapped('OAUTH_UNSUPPORTED_OPERATION', { body: { access_token: 'a', token_type: 'mac' } }),
      ctx('token'),
    );
    expect(error).toMatchObject({ name: 'TransportError', code: 'invalid_response' });
  });

  it('OAUTH_MISSING_SERVER_METADATA → TransportError naming the member', async () => {
    const error = await fromEngine(
      wrapped('OAUTH_MISSING_SERVER_METADATA', { attribute: 'token_endpoint' }),
      ctx('token'),
    );
    expect(error).toMatchObject({ name: 'TransportError', code: 'invalid_response' });
    expect(error.message).toContain('token_endpoint');
  });

  it("the SDK's own TransportError from customFetch comes back as it was", async () => {
    const own = new TransportError('Provider keys at https://op/jwks: HTTP 503', {
      code: 'http_status',
      status: 503,
    });
    const error = await fromEngine(clientError(undefined, own), ctx('token'));
    expect(error).toBe(own);
  });

  it('an unknown lower error on an ID token fails closed: signature_invalid', async () => {
    const error = await fromEngine(new Error('surprise'), ctx('id_token'));
    expect(error).toMatchObject({ name: 'ValidationError', code: 'signature_invalid' });
  });
});

describe('userinfo answers', () => {
  it('OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED on sub → userinfo_subject_mismatch', async () => {
    const error = await fromEngine(
      wrapped('OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED', {
        attribute: 'sub',
        expected: 'a',
        body: { sub: 'b' },
      }),
      ctx('userinfo'),
    );
    expect(error).toMatchObject({ name: 'ValidationError', code: 'userinfo_subject_mismatch' });
  });

  it('OAUTH_INVALID_RESPONSE without sub → subject_missing', async () => {
    const error = await fromEngine(
      wrapped('OAUTH_INVALID_RESPONSE', { body: { name: 'x' } }),
      ctx('userinfo'),
    );
    expect(error).toMatchObject({ name: 'ValidationError', code: 'subject_missing' });
  });

  it('OAUTH_PARSE_ERROR → TransportError invalid_response', async () => {
    const error = await fromEngine(wrapped('OAUTH_PARSE_ERROR', new SyntaxError('x')), ctx('userinfo'));
    expect(error).toMatchObject({ name: 'TransportError', code: 'invalid_response' });
  });
});
