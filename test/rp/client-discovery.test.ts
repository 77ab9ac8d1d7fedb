import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OptionsError, TransportError } from '../../src/core/errors.js';
import { AffiliationClient } from '../../src/rp/client.js';
import { ValidationError } from '../../src/rp/errors.js';
import { CLIENT_ID, CLIENT_SECRET, OpMock, REDIRECT_URI } from '../helpers/op-mock.js';
import { newClient, rejection, roundTrip } from '../helpers/setup.js';

const plain = new OpMock({ issuer: 'https://op.example.org' });
const slashDoc = new OpMock({
  issuer: 'https://slash.example.org',
  documentIssuer: 'https://slash.example.org/',
});
const pathIssuer = new OpMock({ issuer: 'https://paths.example.org/oidc' });
const loopback = new OpMock({ issuer: 'http://127.0.0.1:8765' });
const localhost = new OpMock({ issuer: 'http://localhost:8766' });
const noneAlgs = new OpMock({ issuer: 'https://noneonly.example.org', algs: ['none'] });
const withNone = new OpMock({ issuer: 'https://withnone.example.org', algs: ['none', 'RS256'] });
const httpEndpoint = new OpMock({
  issuer: 'https://httpjwks.example.org',
  discovery: { jwks_uri: 'http://keys.example.org/jwks' },
});
const ops = [plain, slashDoc, pathIssuer, loopback, localhost, noneAlgs, withNone, httpEndpoint];

const server = setupServer(
  ...ops.flatMap((op) => op.handlers()),
  http.get('https://broken.example.org/.well-known/openid-configuration', () =>
    HttpResponse.json({ issuer: 'https://broken.example.org', jwks_uri: 'https://broken.example.org/jwks' }),
  ),
  http.get('https://notjson.example.org/.well-known/openid-configuration', () => new HttpResponse('<html>')),
  http.get(
    'https://down.example.org/.well-known/openid-configuration',
    () => new HttpResponse(null, { status: 404 }),
  ),
  http.get('https://other.example.org/.well-known/openid-configuration', () =>
    HttpResponse.json({ ...plain.discoveryDocument(), issuer: 'https://evil.example.org' }),
  ),
  http.get('https://twoslash.example.org/.well-known/openid-configuration', () =>
    HttpResponse.json({ ...plain.discoveryDocument(), issuer: 'https://twoslash.example.org//' }),
  ),
);
beforeAll(async () => {
  await Promise.all(ops.map((op) => op.init()));
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  for (const op of ops) op.knobs = {};
});
afterAll(() => server.close());

const base = {
  issuer: 'https://op.example.org',
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  redirectUri: REDIRECT_URI,
};

describe('options are checked up front', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['issuer', { issuer: '' }],
    ['issuer', { issuer: 'not a url' }],
    ['issuer', { issuer: 'ftp://op.example.org' }],
    ['issuer', { issuer: 'https://op.example.org?x=1' }],
    ['issuer', { issuer: 'https://op.example.org#frag' }],
    ['clientId', { clientId: '' }],
    ['clientId', { clientId: 42 }],
    ['clientSecret', { clientSecret: undefined }],
    ['redirectUri', { redirectUri: 'not a url' }],
    ['redirectUri', { redirectUri: 'http://shop.example.com/callback' }],
    ['redirectUri', { redirectUri: 'https://shop.example.com/callback#x' }],
    ['redirectUri', { redirectUri: 'https://shop.example.com/callback?x=1' }],
    ['redirectUri', { redirectUri: 'https://shop.example.com' }],
    ['redirectUri', { redirectUri: 'https://SHOP.example.com/callback' }],
    ['responseType', { responseType: 'token' }],
    ['tokenEndpointAuthMethod', { tokenEndpointAuthMethod: 'private_key_jwt' }],
    ['transactions', { transactions: {} }],
    ['clockToleranceSeconds', { clockToleranceSeconds: -1 }],
    ['clockToleranceSeconds', { clockToleranceSeconds: Number.NaN }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: 1.5 }],
    ['hints', { hints: { has: 'yes' } }],
    ['fetch', { fetch: 'globalThis.fetch' }],
  ];
  it.each(bad)('names %s', async (name, override) => {
    const error = await rejection(AffiliationClient.discover({ ...base, ...override } as never));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error.message).toContain(name);
  });

  it('refuses a non-object', async () => {
    await expect(AffiliationClient.discover(undefined as never)).rejects.toBeInstanceOf(OptionsError);
  });

  it('makes no request for bad options', async () => {
    const before = plain.counts.discovery;
    await rejection(AffiliationClient.discover({ ...base, clientSecret: '' }));
    expect(plain.counts.discovery).toBe(before);
  });
});

describe('http: issuers', () => {
  it('refuses http: on a non-loopback host', async () => {
    const error = await rejection(newClient({}, 'http://op.example.org'));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error.message).toMatch(/http:/);
  });

  it.each([
    ['127.0.0.1', loopback],
    ['localhost', localhost],
  ])('allows http: on %s and runs a whole code flow', async (_host, op) => {
    const client = await newClient({ redirectUri: 'http://127.0.0.1:3000/callback' }, op.issuer);
    const result = await roundTrip(client, op);
    expect(result.affiliation).toBe('student');
  });

  it('refuses provider endpoints on http: non-loopback hosts', async () => {
    const error = await rejection(newClient({}, httpEndpoint.issuer));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/jwks_uri/);
  });
});

describe('issuer matching', () => {
  it('tolerates a trailing slash in the document issuer, then requires iss to equal the document exactly', async () => {
    const client = await newClient({}, slashDoc.issuer);
    expect(client.issuer).toBe('https://slash.example.org/');
    await expect(roundTrip(client, slashDoc)).resolves.toBeTruthy();
    slashDoc.knobs = { claims: (c) => (c.iss = 'https://slash.example.org') };
    const error = await rejection(roundTrip(client, slashDoc));
    expect(error.code).toBe('issuer_mismatch');
  });

  it('tolerates a trailing slash in the configured issuer', async () => {
    const client = await newClient({}, 'https://op.example.org/');
    expect(client.issuer).toBe('https://op.example.org');
    await expect(roundTrip(client, plain)).resolves.toBeTruthy();
  });

  it('works for an issuer with a path', async () => {
    const client = await newClient({}, pathIssuer.issuer);
    await expect(roundTrip(client, pathIssuer)).resolves.toBeTruthy();
  });

  it('refuses another issuer', async () => {
    const error = await rejection(newClient({}, 'https://other.example.org'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('issuer_mismatch');
  });

  it('tolerates exactly one trailing slash, not two', async () => {
    const error = await rejection(newClient({}, 'https://twoslash.example.org'));
    expect(error.code).toBe('issuer_mismatch');
  });
});

describe('the discovery document', () => {
  it('is schema-checked (the error names the missing member)', async () => {
    const error = await rejection(newClient({}, 'https://broken.example.org'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe('invalid_response');
    expect(error.message).toMatch(/authorization_endpoint|id_token_signing_alg_values_supported/);
  });

  it('must be JSON', async () => {
    const error = await rejection(newClient({}, 'https://notjson.example.org'));
    expect(error.code).toBe('invalid_response');
  });

  it('must be found', async () => {
    const error = await rejection(newClient({}, 'https://down.example.org'));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).status).toBe(404);
  });

  it('must advertise an algorithm other than none', async () => {
    const error = await rejection(newClient({}, noneAlgs.issuer));
    expect(error.message).toMatch(/no usable signing algorithm/);
  });

  it('has none removed from the advertised algorithms', async () => {
    const client = await newClient({}, withNone.issuer);
    withNone.knobs = { signWith: 'none' };
    const error = await rejection(roundTrip(client, withNone));
    expect(error.code).toBe('unsupported_alg');
  });

  it('is fetched once and the keys once, however many validations follow', async () => {
    const op = pathIssuer;
    const d = op.counts.discovery;
    const j = op.counts.jwks;
    const client = await newClient({}, op.issuer);
    for (let i = 0; i < 3; i++) await roundTrip(client, op);
    expect(op.counts.discovery - d).toBe(1);
    expect(op.counts.jwks - j).toBeLessThanOrEqual(1);
  });
});

describe('responseType id_token', () => {
  it('emits one DeprecationWarning per client configured with it', async () => {
    const spy = vi.spyOn(process, 'emitWarning');
    try {
      await newClient({ responseType: 'id_token' });
      await newClient({ responseType: 'id_token' });
      await newClient();
      expect(spy).toHaveBeenCalledTimes(2);
      expect(spy.mock.calls[0]?.[1]).toMatchObject({
        type: 'DeprecationWarning',
        code: 'AFFILIATION_VALIDATION_ID_TOKEN',
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('warns once with console.warn where the runtime has no process.emitWarning (Next.js edge, workerd without nodejs_compat)', async () => {
    const emitWarning = Object.getOwnPropertyDescriptor(process, 'emitWarning');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    Object.defineProperty(process, 'emitWarning', { value: undefined, configurable: true });
    try {
      await newClient({ responseType: 'id_token' });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toMatch(/^DeprecationWarning: responseType "id_token" is scheduled/);
    } finally {
      if (emitWarning) Object.defineProperty(process, 'emitWarning', emitWarning);
      warn.mockRestore();
    }
  });

  it('does not warn for the code flow', async () => {
    const spy = vi.spyOn(process, 'emitWarning');
    try {
      await newClient();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
