import { describe, expect, it, vi } from 'vitest';
import { ScopeError, ValidationError } from '../../src/rp/errors.js';
import { checkStartRequest, createStartHandler, StartRequestError } from '../../src/rp/start.js';
import { CookieTransactionStore, MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import { REDIRECT_URI } from '../helpers/op-mock.js';
import { browserCookie, newClient, useOp } from '../helpers/setup.js';

const { op } = useOp();
const SHOP = new URL(REDIRECT_URI).origin;
const START = `${SHOP}/start`;
const FORM = 'application/x-www-form-urlencoded';

/** A form POST as Chromium and Firefox send it from a page with Referrer-Policy: no-referrer. */
function post(body: string, headers: Record<string, string> = {}): Request {
  return new Request(START, {
    method: 'POST',
    headers: { 'content-type': FORM, 'sec-fetch-site': 'same-origin', origin: 'null', ...headers },
    body,
  });
}

describe('checkStartRequest', () => {
  const refused = (request: Parameters<typeof checkStartRequest>[0]) => {
    try {
      checkStartRequest(request, SHOP);
    } catch (error) {
      return error as StartRequestError;
    }
    throw new Error('not refused');
  };

  it('accepts a same-origin POST by Sec-Fetch-Site, with Origin null (Referrer-Policy no-referrer)', () => {
    expect(
      checkStartRequest(
        { method: 'POST', headers: { 'sec-fetch-site': 'same-origin', origin: 'null' } },
        SHOP,
      ),
    ).toEqual({ decidedBy: 'sec-fetch-site' });
    expect(
      checkStartRequest(
        { method: 'POST', headers: new Headers({ 'sec-fetch-site': 'same-origin', origin: SHOP }) },
        SHOP,
      ),
    ).toEqual({ decidedBy: 'sec-fetch-site' });
  });

  it('falls back to Origin when the browser sends no Sec-Fetch-Site', () => {
    expect(checkStartRequest({ method: 'post', headers: { origin: SHOP } }, SHOP)).toEqual({
      decidedBy: 'origin',
    });
  });

  it.each([
    ['cross-site', { 'sec-fetch-site': 'cross-site', origin: 'null' }],
    [
      'same-site (a sibling subdomain)',
      { 'sec-fetch-site': 'same-site', origin: 'https://evil.example.com' },
    ],
    ['none (typed in the address bar)', { 'sec-fetch-site': 'none' }],
    [
      'same-origin with a foreign Origin',
      { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
    ],
    ['Origin null without Sec-Fetch-Site', { origin: 'null' }],
    ['another Origin', { origin: 'https://evil.example' }],
    ['neither header (curl, an old client)', {}],
    ['a repeated Origin', { origin: [SHOP, SHOP] }],
  ])('refuses %s with 403', (_name, headers) => {
    const error = refused({ method: 'POST', headers });
    expect(error).toBeInstanceOf(StartRequestError);
    expect(error.code).toBe('cross_site_start');
    expect(error.status).toBe(403);
  });

  it('refuses anything but POST with 405', () => {
    const error = refused({ method: 'GET', headers: { 'sec-fetch-site': 'same-origin' } });
    expect([error.code, error.status]).toEqual(['method_not_allowed', 405]);
  });
});

describe('startHandler', () => {
  it('starts a validation from the form and answers 303 with the cookie, then the callback validates', async () => {
    // A store that binds to the browser, so the start sets its cookie.
    const client = await newClient({ transactions: new MemoryTransactionStore() });
    const start = client.startHandler();
    const response = await start(post('affiliation=faculty%2Bstaff&institution='));
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('scope')).toBe('openid faculty+staff');
    expect(location.searchParams.has('aarc_idp_hint')).toBe(false);
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const result = await client.validateCallback(await op.authorize(location.href), {
      cookie: browserCookie(cookies[0]),
    });
    expect(result.affiliation).toBe('faculty+staff');
  });

  it('sends the institution as aarc_idp_hint and the identifier when the form may set them', async () => {
    const client = await newClient();
    const start = client.startHandler({ formFields: ['institution', 'identifier'], affiliation: 'employee' });
    const response = await start(
      post('institution=https%3A%2F%2Fidp.example.edu%2Fidp&identifier=persistent'),
    );
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('aarc_idp_hint')).toBe('https://idp.example.edu/idp');
    expect(location.searchParams.get('scope')).toBe('openid employee persistent');
  });

  it('passes the request Cookie header to the store', async () => {
    const put = vi.fn(async () => 'a=1; Path=/');
    const client = await newClient({ transactions: { put, take: async () => undefined } });
    const response = await client.startHandler()(post('', { cookie: 'old=x' }));
    expect(response.status).toBe(303);
    expect(put).toHaveBeenCalledWith(expect.objectContaining({ affiliation: 'student' }), {
      cookie: 'old=x',
    });
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/']);
  });

  it('appends one Set-Cookie header per value when the store sets several (new one, evicted ones)', async () => {
    const fake = {
      responseType: 'code' as const,
      createAuthorizationRequest: vi.fn(async () => ({
        url: 'https://op.example.org/a',
        state: 's',
        setCookie: ['a=1; Path=/', 'b=; Max-Age=0; Path=/'] as unknown as string,
      })),
    };
    const response = await createStartHandler(fake, REDIRECT_URI)(post(''));
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=; Max-Age=0; Path=/']);
    expect(fake.createAuthorizationRequest).toHaveBeenCalledWith({ affiliation: 'student' }, { cookie: '' });
  });

  it('chooses the flow from the form when both clients are given', async () => {
    const transactions = new CookieTransactionStore({ secret: 'start-test-secret-0123456789abcdef0123' });
    const code = await newClient({ transactions });
    const idToken = await newClient({ transactions, responseType: 'id_token' });
    const start = code.startHandler({ flows: { code, id_token: idToken } });
    const a = new URL((await start(post('flow=id_token'))).headers.get('location') ?? '');
    expect(a.searchParams.get('response_type')).toBe('id_token');
    const b = new URL((await start(post('flow=code'))).headers.get('location') ?? '');
    expect(b.searchParams.get('response_type')).toBe('code');
    const c = await start(post('flow=implicit'));
    expect(c.status).toBe(400);
    // A single client offers no flow choice; its own flow may still be named.
    expect((await code.startHandler()(post('flow=id_token'))).status).toBe(400);
    expect((await code.startHandler()(post('flow=code'))).status).toBe(303);
  });

  it.each([
    ['an unknown affiliation', 'affiliation=admin', /offered affiliations/],
    ['an affiliation the shop does not offer', 'affiliation=member', /offered affiliations/],
    ['a repeated field', 'affiliation=student&affiliation=employee', /one value/],
    ['a field the shop fixes', 'identifier=persistent', /not offered here/],
    ['a fixed field with another value', 'flow=id_token', /not offered here/],
    ['a malformed institution', 'institution=a%20b', /.+/],
    ['a form-decoded faculty+staff', 'affiliation=faculty+staff', /offered affiliations/],
  ])('answers 400 with a clear page for %s', async (_name, body, message) => {
    const client = await newClient();
    const response = await client.startHandler({ affiliations: ['student', 'employee', 'faculty+staff'] })(
      post(body),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toMatch(message);
  });

  it('refuses GET (405, Allow: POST), a cross-site POST (403), another media type (415), a large form (413)', async () => {
    const client = await newClient();
    const start = client.startHandler({ maxFormBytes: 64 });
    const get = await start(new Request(START, { headers: { 'sec-fetch-site': 'none' } }));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await start(post('affiliation=student', { 'sec-fetch-site': 'cross-site' }))).status).toBe(403);
    expect((await start(post('{}', { 'content-type': 'application/json' }))).status).toBe(415);
    expect((await start(post(`institution=${'x'.repeat(100)}`))).status).toBe(413);
  });

  it('refuses an unknown hint with the SDK error, through onError', async () => {
    const client = await newClient({ hints: { has: () => false } });
    const onError = vi.fn((error) => new Response(error.code, { status: 422 }));
    const response = await client.startHandler({ onError })(post('institution=https%3A%2F%2Fidp.example%2F'));
    expect(response.status).toBe(422);
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(ValidationError);
    expect(await response.text()).toBe('unknown_hint');
  });

  it('uses the origin option instead of the redirectUri origin', async () => {
    const client = await newClient();
    const start = client.startHandler({ origin: 'https://www.shop.example.com' });
    expect((await start(post('', { 'sec-fetch-site': '', origin: SHOP }))).status).toBe(403);
    const ok = post('');
    const plain = new Request(ok.url, {
      method: 'POST',
      headers: { 'content-type': FORM, origin: 'https://www.shop.example.com' },
      body: '',
    });
    expect((await start(plain)).status).toBe(303);
  });

  it('checks its options when created', async () => {
    const client = await newClient();
    expect(() => client.startHandler({ origin: 'https://shop.example/path' })).toThrow(/origin/);
    expect(() => client.startHandler({ affiliations: [] })).toThrow(/affiliations/);
    expect(() => client.startHandler({ flows: { id_token: client } })).toThrow(/responseType "id_token"/);
    expect(() => client.startHandler({ maxFormBytes: 0 })).toThrow(/maxFormBytes/);
  });

  it('keeps ScopeError for a bad further scope configured by the shop', async () => {
    const client = await newClient();
    const onError = vi.fn((_error: unknown) => new Response(null, { status: 400 }));
    await client.startHandler({ scopes: ['student'], onError })(post(''));
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(ScopeError);
  });
});
