/**
 * The mapping of openid-client's errors to the SDK's, one case per code of the SDK (issue 30 point 2):
 * by the classes and codes openid-client and oauth4webapi publish, the claim named by the ID token
 * itself. The errors are built through their public constructors, with no `cause`: the mapping must
 * not need one. The flows that produce each of them for real are in the client-validation,
 * endpoint-errors, code-exchange, client-keys and key-rollover tests.
 */
import { base64url } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { fromEngine, type MapContext } from '../../src/rp/engine-errors.js';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';

const CLIENT_ID = 'shop';
const ISSUER = 'https://op.example.org';
const NOW = Math.floor(Date.now() / 1000);

/** A JWS as the provider would send one; the signature is not checked by the mapping. */
function jws(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256', kid: 'k1' }) {
  const part = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${part(header)}.${part(claims)}.c2lnbmF0dXJl`;
}

const claims = { iss: ISSUER, aud: CLIENT_ID, exp: NOW + 600, iat: NOW, sub: 'x', nonce: 'n' };

const ctx = (source: MapContext['source'], idToken?: string): MapContext => ({
  source,
  clientId: CLIENT_ID,
  secrets: ['s3cret'],
  idToken,
  issuer: ISSUER,
  nonce: 'n',
  algorithms: ['RS256'],
  clockToleranceSeconds: 30,
  keyCount: 2,
});

/** A ClientError as openid-client makes one: a message and oauth4webapi's code, nothing else. */
function clientError(code: string | undefined): oidc.ClientError {
  const Ctor = oidc.ClientError as unknown as new (m: string, o: { code?: string }) => oidc.ClientError;
  return new Ctor('openid-client', { code });
}

describe.each([
  [oauth.JWT_CLAIM_COMPARISON, jws({ ...claims, iss: 'https://evil.example' }), 'issuer_mismatch'],
  [oauth.JWT_CLAIM_COMPARISON, jws({ ...claims, aud: 'other' }), 'audience_mismatch'],
  [oauth.JWT_CLAIM_COMPARISON, jws({ ...claims, aud: [CLIENT_ID, 'other'] }), 'azp_mismatch'],
  [oauth.JWT_CLAIM_COMPARISON, jws({ ...claims, azp: 'other' }), 'azp_mismatch'],
  [oauth.JWT_CLAIM_COMPARISON, jws({ ...claims, nonce: 'm' }), 'nonce_mismatch'],
  [oauth.JWT_TIMESTAMP_CHECK, jws({ ...claims, exp: NOW - 3600 }), 'token_expired'],
  [oauth.JWT_TIMESTAMP_CHECK, jws({ ...claims, nbf: NOW + 3600 }), 'iat_invalid'],
  [oauth.INVALID_RESPONSE, jws({ ...claims, exp: undefined }), 'token_expired'],
  [oauth.INVALID_RESPONSE, jws({ ...claims, iat: 'yesterday' }), 'iat_invalid'],
  [oauth.INVALID_RESPONSE, jws({ ...claims, iss: undefined }), 'issuer_mismatch'],
  [oauth.INVALID_RESPONSE, jws({ ...claims, aud: undefined }), 'audience_mismatch'],
  [oauth.INVALID_RESPONSE, jws({ ...claims, sub: 7 }), 'subject_missing'],
  [oauth.INVALID_RESPONSE, jws({ ...claims, nonce: undefined }), 'nonce_mismatch'],
  [oauth.INVALID_RESPONSE, jws({ ...claims, auth_time: 'now' }), 'iat_invalid'],
  [oauth.INVALID_RESPONSE, jws(claims, { alg: 'ES256' }), 'unsupported_alg'],
  [oauth.INVALID_RESPONSE, jws(claims), 'signature_invalid'],
  [oauth.INVALID_RESPONSE, 'not.a-jwt', 'signature_invalid'],
  [oauth.PARSE_ERROR, 'not-a-jwt', 'signature_invalid'],
  [oauth.KEY_SELECTION, jws(claims, { alg: 'RS256', kid: 'k2' }), 'signature_invalid'],
  [oauth.UNSUPPORTED_OPERATION, jws(claims, { alg: 'HS256' }), 'unsupported_alg'],
  [oauth.UNSUPPORTED_OPERATION, jws(claims, { alg: 'RS256', crit: ['x'] }), 'unsupported_alg'],
  [oauth.UNSUPPORTED_OPERATION, 'a.b.c.d.e', 'unsupported_alg'],
  [undefined, jws(claims), 'signature_invalid'],
])('%s with an ID token (%#)', (code, token, expected) => {
  it(`→ ValidationError ${expected}`, async () => {
    const error = await fromEngine(clientError(code), ctx('token', token));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe(expected);
    // Only the lower error's name and code are kept: never the token or its claims.
    expect(error.cause).toEqual({ name: 'ClientError', code });
    expect(error.message).not.toContain(token);
  });
});

describe('the ID token names the key in a failed key selection', () => {
  it('no kid and several keys: says that several keys match', async () => {
    const error = await fromEngine(
      clientError(oauth.KEY_SELECTION),
      ctx('id_token', jws(claims, { alg: 'RS256' })),
    );
    expect(error.message).toMatch(/Several keys .* names none \(alg "RS256", kid none\)/);
  });

  it('a kid the keys lack: says that no key matches, naming it', async () => {
    const error = await fromEngine(clientError(oauth.KEY_SELECTION), ctx('id_token', jws(claims)));
    expect(error.message).toMatch(/No key of the provider matches the ID token \(alg "RS256", kid "k1"\)/);
  });
});

describe('token endpoint answers', () => {
  it('ResponseBodyError → ProviderError with the body error, description redacted', async () => {
    const response = new Response(null, { status: 400 });
    const body = { error: 'invalid_grant', error_description: 'bad code for s3cret' };
    const error = await fromEngine(new oidc.ResponseBodyError('x', { cause: body, response }), ctx('token'));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'invalid_grant', source: 'token', status: 400 });
    expect((error as ProviderError).description).not.toContain('s3cret');
  });

  it('WWWAuthenticateChallengeError: the JSON body wins for the token endpoint', async () => {
    const response = new Response(JSON.stringify({ error: 'invalid_client' }), { status: 401 });
    const challenges = [{ scheme: 'basic' as const, parameters: { realm: 'token' } }];
    const error = await fromEngine(
      new oidc.WWWAuthenticateChallengeError('x', { cause: challenges, response }),
      ctx('token'),
    );
    expect(error).toMatchObject({ name: 'ProviderError', code: 'invalid_client', status: 401 });
  });

  it('WWWAuthenticateChallengeError: the challenge error wins for userinfo', async () => {
    const response = new Response(JSON.stringify({ error: 'invalid_request' }), { status: 401 });
    const challenges = [{ scheme: 'bearer' as const, parameters: { error: 'invalid_token' } }];
    const error = await fromEngine(
      new oidc.WWWAuthenticateChallengeError('x', { cause: challenges, response }),
      ctx('userinfo'),
    );
    expect(error).toMatchObject({ name: 'ProviderError', code: 'invalid_token', source: 'userinfo' });
  });

  it('MISSING_SERVER_METADATA → TransportError naming the endpoint', async () => {
    const error = await fromEngine(clientError(oauth.MISSING_SERVER_METADATA), ctx('token'));
    expect(error).toMatchObject({ name: 'TransportError', code: 'invalid_response' });
    expect(error.message).toContain('token_endpoint');
  });

  it("the SDK's own TransportError from customFetch comes back as it was", async () => {
    const own = new TransportError('Provider keys at https://op/jwks: HTTP 503', {
      code: 'http_status',
      status: 503,
    });
    const Ctor = oidc.ClientError as unknown as new (m: string, o: { cause: unknown }) => oidc.ClientError;
    expect(await fromEngine(new Ctor('x', { cause: own }), ctx('token'))).toBe(own);
  });

  it('an unknown lower error on an ID token the engine did not see fails closed: signature_invalid', async () => {
    const error = await fromEngine(new Error('surprise'), ctx('id_token'));
    expect(error).toMatchObject({ name: 'ValidationError', code: 'signature_invalid' });
  });
});

describe('userinfo answers (the engine hands over JSON objects only)', () => {
  it('JSON_ATTRIBUTE_COMPARISON → userinfo_subject_mismatch', async () => {
    const error = await fromEngine(clientError(oauth.JSON_ATTRIBUTE_COMPARISON), ctx('userinfo'));
    expect(error).toMatchObject({ name: 'ValidationError', code: 'userinfo_subject_mismatch' });
  });

  it('INVALID_RESPONSE → subject_missing', async () => {
    const error = await fromEngine(clientError(oauth.INVALID_RESPONSE), ctx('userinfo'));
    expect(error).toMatchObject({ name: 'ValidationError', code: 'subject_missing' });
  });
});
