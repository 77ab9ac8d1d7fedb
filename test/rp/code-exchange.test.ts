/**
 * The code flow's token and userinfo requests, made through the SDK's own HTTP layer: what goes
 * on the wire, which answers are refused, and what the shopper is told when the exchange fails.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';
import { CLIENT_ID, TOKEN_ENDPOINT, USERINFO_ENDPOINT } from '../helpers/op-mock.js';
import { newClient, rejection, useOp } from '../helpers/setup.js';

const { op, server } = useOp();

async function codeFlow(overrides: Parameters<typeof newClient>[0] = {}, userinfo = false) {
  const client = await newClient(overrides);
  const { url } = await client.createAuthorizationRequest({
    affiliation: 'student',
    ...(userinfo ? { claims: { userinfo: { reuse_detection: null } } } : {}),
  });
  return { client, callback: await op.authorize(url) };
}

describe('the token request', () => {
  it('form-encodes client_secret_basic credentials (RFC 6749 §2.3.1)', async () => {
    const secret = 'a b:c+d%e&f';
    let seen: string[] = [];
    server.use(
      http.post(TOKEN_ENDPOINT, ({ request }) => {
        const encoded = Buffer.from(
          (request.headers.get('authorization') ?? '').replace(/^Basic /, ''),
          'base64',
        ).toString();
        seen = encoded.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
        return HttpResponse.json({ error: 'invalid_client' }, { status: 401 });
      }),
    );
    const { client, callback } = await codeFlow({ clientSecret: secret });
    await rejection(client.validateCallback(callback));
    expect(seen).toEqual([CLIENT_ID, secret]);
  });

  it('sends grant_type, code, the configured redirect_uri and the PKCE verifier, nothing secret in the URL', async () => {
    const { client, callback } = await codeFlow();
    await client.validateCallback(callback);
    const body = op.lastTokenRequest?.body;
    expect(body?.get('grant_type')).toBe('authorization_code');
    expect(body?.get('code')).toBe(new URL(callback).searchParams.get('code'));
    expect([...(body?.keys() ?? [])].sort()).toEqual(['code', 'code_verifier', 'grant_type', 'redirect_uri']);
  });

  it.each([
    ['a token_type other than Bearer', { token_type: 'DPoP' }],
    ['no access_token', { access_token: undefined }],
  ])('refuses a token response with %s (TransportError invalid_response)', async (_name, change) => {
    op.knobs = { tokenResponse: (b) => Object.assign(b, change) };
    const { client, callback } = await codeFlow();
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe('invalid_response');
  });

  it("a token endpoint slower than timeoutMs is the HTTP layer's TransportError timeout", async () => {
    server.use(
      http.post(TOKEN_ENDPOINT, async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return HttpResponse.json({ error: 'too_late' }, { status: 400 });
      }),
    );
    const { client, callback } = await codeFlow({ timeoutMs: 50 });
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'timeout', method: 'POST' });
  });

  it('refuses a 200 answer that is not a JSON object', async () => {
    server.use(http.post(TOKEN_ENDPOINT, () => new HttpResponse('<html></html>', { status: 200 })));
    const { client, callback } = await codeFlow();
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
  });

  it.each([
    ['JSON that does not parse, labelled application/json', '{"access_token": "at", ', 'application/json'],
    ['a JSON array', '[]', 'application/json'],
  ])(
    'refuses a 200 answer of %s (TransportError invalid_response, not a token defect)',
    async (_n, body, type) => {
      server.use(
        http.post(
          TOKEN_ENDPOINT,
          () => new HttpResponse(body, { status: 200, headers: { 'content-type': type } }),
        ),
      );
      const { client, callback } = await codeFlow();
      const error = await rejection(client.validateCallback(callback));
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    },
  );

  it('a token response without an ID token → missing_parameters', async () => {
    op.knobs = { tokenResponse: (b) => delete b.id_token };
    const { client, callback } = await codeFlow();
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('missing_parameters');
  });
});

describe('the userinfo request', () => {
  it('refuses a userinfo answer without a subject', async () => {
    op.knobs = { userinfo: (claims) => delete claims.sub };
    const { client, callback } = await codeFlow({}, true);
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('subject_missing');
  });

  it('refuses a signed (application/jwt) userinfo answer with a clear TransportError', async () => {
    server.use(
      http.get(
        USERINFO_ENDPOINT,
        () => new HttpResponse('e30.e30.', { headers: { 'content-type': 'application/jwt' } }),
      ),
    );
    const { client, callback } = await codeFlow({}, true);
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/signed JWT/);
  });
});

describe('what the shopper is told (issue 11 item 4)', () => {
  it('a wrong client secret fails at the callback: the message says so, not "could not be started"', async () => {
    const { client, callback } = await codeFlow({ clientSecret: 'wrong-secret-value-1' });
    const error = (await rejection(client.validateCallback(callback))) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'invalid_client', source: 'token' });
    expect(error.userMessage).toMatch(/returned to the shop/);
    expect(error.userMessage).toMatch(/problem on the shop side/);
    expect(error.userMessage).not.toMatch(/could not be started/);
  });

  it('an error on the redirect before anything happened says the validation could not be started', () => {
    const error = ProviderError.from({ error: 'invalid_scope', source: 'authorization' });
    expect(error.userMessage).toMatch(/could not be started/);
  });

  it('each source and code gives a message that names where it failed', () => {
    const started = ProviderError.from({ error: 'unauthorized_client', source: 'authorization' });
    const completed = ProviderError.from({ error: 'invalid_grant', source: 'token' });
    const userinfo = ProviderError.from({ error: 'invalid_token', source: 'userinfo' });
    const busy = ProviderError.from({ error: 'temporarily_unavailable', source: 'authorization' });
    expect(started.userMessage).toMatch(/could not be started/);
    expect(completed.userMessage).toMatch(/could not be completed when you returned/);
    expect(userinfo.userMessage).toMatch(/could not be completed when you returned/);
    expect(busy.userMessage).toMatch(/try again in a moment/);
  });

  it('an error code outside the known list is unknown_error; .error keeps it as sent', () => {
    const error = ProviderError.from({ error: 'slow_down_please', source: 'authorization' });
    expect(error.code).toBe('unknown_error');
    expect(error.error).toBe('slow_down_please');
  });
});
