import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { AffiliationError } from '../../src/core/errors.js';
import { escapeHtml } from '../../src/core/html.js';
import { ProviderError } from '../../src/rp/errors.js';
import { defaultErrorResponse } from '../../src/rp/handler.js';
import { CookieTransactionStore } from '../../src/rp/transactions/index.js';
import type { AffiliationResult } from '../../src/rp/types.js';
import { REDIRECT_URI } from '../helpers/op-mock.js';
import { browserCookie, newClient, useOp } from '../helpers/setup.js';

const { op } = useOp();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const ok = (result: AffiliationResult) =>
  new Response(JSON.stringify({ affiliation: result.affiliation }), {
    headers: { 'content-type': 'application/json' },
  });

describe('callbackHandler', () => {
  it('serves the fragment relay page for a GET without parameters', async () => {
    const client = await newClient({ responseType: 'id_token' });
    const onSuccess = vi.fn(ok);
    const response = await client.callbackHandler({ onSuccess })(new Request(REDIRECT_URI));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/nonce-/);
    expect(await response.text()).toMatch(/<form|form/);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('validates a GET with parameters and calls onSuccess with the result and the request', async () => {
    const client = await newClient();
    const { url, setCookie } = await client.createAuthorizationRequest({ affiliation: 'employee' });
    const request = new Request(await op.authorize(url), { headers: { cookie: browserCookie(setCookie) } });
    const onSuccess = vi.fn(ok);
    const response = await client.callbackHandler({ onSuccess })(request);
    expect(await response.json()).toEqual({ affiliation: 'employee' });
    expect(onSuccess).toHaveBeenCalledWith(expect.objectContaining({ affiliation: 'employee' }), request);
  });

  it('validates the relay POST of an id_token fragment', async () => {
    const client = await newClient({ responseType: 'id_token' });
    const { url, setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const fragment = new URL(await op.authorize(url)).hash.slice(1);
    const headers = { ...FORM, cookie: browserCookie(setCookie) };
    const response = await client.callbackHandler({ onSuccess: ok })(
      new Request(REDIRECT_URI, { method: 'POST', headers, body: fragment }),
    );
    expect(await response.json()).toEqual({ affiliation: 'student' });
  });

  it('answers a rejected callback with a 400 page showing the userMessage by default', async () => {
    const client = await newClient();
    const response = await client.callbackHandler({ onSuccess: ok })(
      new Request(`${REDIRECT_URI}?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C/script%3E`),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(
      escapeHtml(ProviderError.from({ error: 'access_denied', source: 'authorization' }).userMessage),
    );
    expect(html).not.toContain('<script>');
  });

  it('calls onError with the typed error', async () => {
    const client = await newClient();
    const onError = vi.fn((error: AffiliationError) => new Response(error.code, { status: 418 }));
    const response = await client.callbackHandler({ onSuccess: ok, onError })(
      new Request(`${REDIRECT_URI}?code=x&state=unknown`),
    );
    expect(response.status).toBe(418);
    expect(await response.text()).toBe('unknown_state');
  });

  it('lets an exception of onSuccess through (it is the application, not the callback)', async () => {
    const client = await newClient();
    const { url, setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const handler = client.callbackHandler({
      onSuccess: () => {
        throw new Error('app bug');
      },
    });
    const request = new Request(await op.authorize(url), { headers: { cookie: browserCookie(setCookie) } });
    await expect(handler(request)).rejects.toThrow('app bug');
  });

  it('clears the transaction cookie of a CookieTransactionStore, on success and on error', async () => {
    const transactions = new CookieTransactionStore({ secret: 'x'.repeat(32) });
    const client = await newClient({ transactions });
    const { url, setCookie, state } = await client.createAuthorizationRequest({ affiliation: 'student' });
    expect(setCookie).toBeTruthy();
    const cookie = (setCookie ?? '').split(';')[0] ?? '';
    const callback = await op.authorize(url);
    const handler = client.callbackHandler({
      onSuccess: () => Response.redirect('https://shop.example.com/ok', 303),
    });
    const response = await handler(new Request(callback, { headers: { cookie } }));
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toBe(transactions.clearCookie(state, { cookie }));

    // An error answer ends the transaction too: the browser's cookie for that state is replaced.
    const second = await client.createAuthorizationRequest({ affiliation: 'student' });
    const secondCookie = (second.setCookie ?? '').split(';')[0] ?? '';
    const failed = await handler(
      new Request(`${REDIRECT_URI}?error=access_denied&state=${second.state}`, {
        headers: { cookie: secondCookie },
      }),
    );
    expect(failed.status).toBe(400);
    const cleared = failed.headers.get('set-cookie');
    expect(cleared).not.toBeNull();
    expect(cleared).toBe(transactions.clearCookie(second.state, { cookie: secondCookie }));
  });
});

describe('callbackHandler and the cookies of other validations', () => {
  it('touches only the cookie of the callback’s state: another tab’s validation still completes', async () => {
    const transactions = new CookieTransactionStore({ secret: 'x'.repeat(32) });
    const client = await newClient({ transactions });
    const a = await client.createAuthorizationRequest({ affiliation: 'student' }, { cookie: '' });
    const b = await client.createAuthorizationRequest(
      { affiliation: 'member' },
      { cookie: browserCookie(a.setCookie) },
    );
    const cookie = `${browserCookie(a.setCookie)}; ${browserCookie(b.setCookie)}`;
    const handler = client.callbackHandler({ onSuccess: (result) => new Response(result.affiliation) });
    const first = await handler(new Request(await op.authorize(b.url), { headers: { cookie } }));
    expect(await first.text()).toBe('member');
    const set = first.headers.getSetCookie();
    expect(set).toHaveLength(1);
    expect(set[0]).toMatch(/^__Host-av_tx_1=[A-Za-z0-9_-]{16}\.used;/);
    // The browser now holds A's cookie and B's marker: A completes.
    const after = `${browserCookie(a.setCookie)}; ${browserCookie(set[0])}`;
    const second = await handler(new Request(await op.authorize(a.url), { headers: { cookie: after } }));
    expect(await second.text()).toBe('student');
  });
});

describe('the default error page', () => {
  it('escapes the userMessage', async () => {
    const error = new AffiliationError('x', { code: 'x', userMessage: `<img src=x onerror="alert('1')">&` });
    const html = await defaultErrorResponse(error).text();
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
    expect(html).not.toContain('<img');
  });

  it('allows its one style by the style’s SHA-256 in the CSP (written out in the source)', async () => {
    const response = defaultErrorResponse(new AffiliationError('x', { code: 'x' }));
    const style = /<style>([^<]*)<\/style>/.exec(await response.text())?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(response.headers.get('content-security-policy')).toContain(`style-src 'sha256-${hash}';`);
  });
});
