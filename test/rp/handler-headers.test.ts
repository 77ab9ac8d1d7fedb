import { describe, expect, it } from 'vitest';
import { REDIRECT_URI } from '../helpers/op-mock.js';
import { browserCookie, newClient, useOp } from '../helpers/setup.js';

const { op } = useOp();

// The callback URL carries the code and state, and the answer may show the validation result:
// it must never be cached or sent on as a Referer, whatever onSuccess / onError return.
describe('callbackHandler answers are no-store and no-referrer', () => {
  it('adds both to an onSuccess response that has neither, even an immutable redirect', async () => {
    const client = await newClient();
    const { url, setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const handler = client.callbackHandler({
      onSuccess: () => Response.redirect('https://shop.example.com/done', 303),
    });
    const response = await handler(
      new Request(await op.authorize(url), { headers: { cookie: browserCookie(setCookie) } }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('https://shop.example.com/done');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('adds both to an onError response, and keeps headers the application set itself', async () => {
    const client = await newClient();
    const handler = client.callbackHandler({
      onSuccess: () => new Response('never'),
      onError: () =>
        new Response('nope', { status: 400, headers: { 'cache-control': 'private, max-age=0' } }),
    });
    const response = await handler(new Request(`${REDIRECT_URI}?code=x&state=unknown`));
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('private, max-age=0');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });
});
