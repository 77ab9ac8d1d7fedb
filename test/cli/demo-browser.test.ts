import { describe, expect, it } from 'vitest';
import { Browser, BrowserError, type BrowserStep } from '../../src/testing/browser.js';
import { formValues, parseForms } from '../../src/testing/html-form.js';

/** A fake web: answers by "METHOD url", records what the browser sent. */
function fakeWeb(routes: Record<string, (req: Request) => Response>) {
  const sent: { method: string; url: string; cookie: string | null; body: string }[] = [];
  const f: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const body = init?.body ? String(init.body) : '';
    sent.push({ method: req.method, url: req.url, cookie: req.headers.get('cookie'), body });
    const route = routes[`${req.method} ${req.url}`];
    if (!route) return new Response('not found', { status: 404 });
    return route(req);
  };
  return { fetch: f, sent };
}

const redirect = (location: string, status = 302, cookies: string[] = []) => {
  const headers = new Headers({ location });
  for (const c of cookies) headers.append('set-cookie', c);
  return new Response(null, { status, headers });
};
const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });

describe('the demo browser', () => {
  it('follows redirects one by one, keeps cookies per origin and path, and forgets deleted ones', async () => {
    const web = fakeWeb({
      'GET http://shop.test/start': () =>
        redirect('http://op.test/auth?state=s3cr3t', 303, [
          'tx=abc; Path=/; HttpOnly',
          'other=1; Path=/admin',
        ]),
      'GET http://op.test/auth?state=s3cr3t': () =>
        redirect('http://shop.test/callback?code=c0de&state=s3cr3t'),
      'GET http://shop.test/callback?code=c0de&state=s3cr3t': () =>
        new Response('done', { headers: { 'set-cookie': 'tx=; Max-Age=0; Path=/' } }),
    });
    const steps: BrowserStep[] = [];
    const browser = new Browser({ fetch: web.fetch, onStep: (s) => steps.push(s) });
    const page = await browser.open('http://shop.test/start');
    expect(page.body).toBe('done');
    expect(web.sent.map((s) => [s.url, s.cookie])).toEqual([
      ['http://shop.test/start', null],
      ['http://op.test/auth?state=s3cr3t', null],
      ['http://shop.test/callback?code=c0de&state=s3cr3t', 'tx=abc'],
    ]);
    expect(browser.cookieNames('http://shop.test')).toEqual(['other']);
    // Printed steps are redacted.
    expect(steps.map((s) => `${s.method} ${s.url} ${s.status}`).join('\n')).not.toMatch(/s3cr3t|c0de/);
    expect(steps[0]).toMatchObject({ reason: 'navigate', status: 303 });
    expect(steps[1]?.reason).toBe('redirect');
  });

  it('turns POST into GET on 302/303 and keeps it on 307', async () => {
    const web = fakeWeb({
      'POST http://a.test/form': () => redirect('http://a.test/keep', 307),
      'POST http://a.test/keep': () => redirect('http://a.test/end', 303),
      'GET http://a.test/end': () => html('<h1>end</h1>'),
    });
    const browser = new Browser({ fetch: web.fetch });
    const [form] = parseForms(
      '<form method="post" action="/form"><input name="x" value="1"></form>',
      'http://a.test/',
    );
    await browser.submit(form!);
    expect(web.sent.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual([
      'POST http://a.test/form x=1',
      'POST http://a.test/keep x=1',
      'GET http://a.test/end ',
    ]);
  });

  it('does the relay page job: posts the fragment parameters as a form to the page address', async () => {
    const web = fakeWeb({
      'GET http://shop.test/cb': () =>
        html('<form id="relay" method="post"></form><script>var h = window.location.hash;</script>'),
      'POST http://shop.test/cb': () => html('<h1>ok</h1>'),
    });
    const browser = new Browser({ fetch: web.fetch });
    const page = await browser.openAndRelay('http://shop.test/cb#id_token=eyJhbGciOi.x.y&state=st');
    expect(page.body).toBe('<h1>ok</h1>');
    expect(web.sent[0]?.url).toBe('http://shop.test/cb');
    expect(web.sent[1]).toMatchObject({ method: 'POST', url: 'http://shop.test/cb' });
    expect(new URLSearchParams(web.sent[1]?.body).get('id_token')).toBe('eyJhbGciOi.x.y');
  });

  it('stops on redirect loops and invalid Location headers with a typed error', async () => {
    const loop = fakeWeb({ 'GET http://a.test/': () => redirect('http://a.test/') });
    await expect(
      new Browser({ fetch: loop.fetch, maxRedirects: 3 }).open('http://a.test/'),
    ).rejects.toBeInstanceOf(BrowserError);
    const bad = fakeWeb({ 'GET http://a.test/': () => redirect('http://[bad') });
    await expect(new Browser({ fetch: bad.fetch }).open('http://a.test/')).rejects.toThrow(/invalid URL/);
  });

  it('parses forms like a browser: entities, selects, checked radios, buttons, disabled fields', () => {
    const [form] = parseForms(
      `<form method="POST" action="/go?a=1&amp;b=2">
        <input type="hidden" name="tx" value="a&amp;b&#39;c">
        <select name="entity_id"><option value="x">X</option><option value="y" selected>Y</option></select>
        <input type="radio" name="consent" value="yes">
        <input type="radio" name="consent" value="no" checked>
        <input type="checkbox" name="remember">
        <input name="off" value="1" disabled>
        <textarea name="note">hi &lt;there&gt;</textarea>
        <button type="submit" name="action" value="send">Send</button>
      </form>`,
      'http://op.test/page',
    );
    expect(form?.action).toBe('http://op.test/go?a=1&b=2');
    expect(form?.method).toBe('POST');
    expect(form?.buttons).toEqual([{ name: 'action', value: 'send', label: 'Send' }]);
    expect(formValues(form!).toString()).toBe('tx=a%26b%27c&entity_id=y&consent=no&note=hi+%3Cthere%3E');
    expect(formValues(form!, { entity_id: 'x', consent: 'yes' }, form!.buttons[0]).toString()).toBe(
      'tx=a%26b%27c&entity_id=x&consent=yes&note=hi+%3Cthere%3E&action=send',
    );
  });
});
