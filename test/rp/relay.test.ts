import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { fragmentRelayHtml } from '../../src/rp/relay.js';

/** The inline script of the page and the nonce on its tag. */
function scriptOf(html: string): { nonce: string; source: string } {
  const scripts = [...html.matchAll(/<script nonce="([^"]*)">([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  const [, nonce = '', source = ''] = scripts[0] ?? [];
  return { nonce, source };
}

/** Attributes of the static element with this id, read from the HTML. */
function element(html: string, id: string): { tag: string; attributes: Record<string, string> } {
  const match = new RegExp(`<(\\w+) id="${id}"([^>]*)>`).exec(html);
  expect(match, `element #${id}`).not.toBeNull();
  const attributes: Record<string, string> = {};
  for (const [, name = '', value = ''] of (match?.[2] ?? '').matchAll(/\s([a-z-]+)(?:="([^"]*)")?/g)) {
    attributes[name] = value;
  }
  return { tag: match?.[1] ?? '', attributes };
}

interface FakeElement {
  id: string;
  hidden: boolean;
  attributes: Record<string, string>;
  children: { type: string; name: string; value: string }[];
  submitted: number;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  appendChild(child: { type: string; name: string; value: string }): void;
  submit(): void;
}

/** Run the page's script against a minimal DOM built from the page's own HTML. */
function runRelay(html: string, url: string) {
  const { source } = scriptOf(html);
  const current = new URL(url);
  const elements = new Map<string, FakeElement>();
  for (const id of ['relay', 'working', 'sending', 'empty']) {
    const { attributes } = element(html, id);
    elements.set(id, {
      id,
      hidden: 'hidden' in attributes,
      attributes,
      children: [],
      submitted: 0,
      getAttribute: (name) => attributes[name] ?? null,
      setAttribute: (name, value) => {
        attributes[name] = value;
      },
      appendChild(child) {
        this.children.push(child);
      },
      submit() {
        this.submitted += 1;
      },
    });
  }
  const history: { url: string }[] = [];
  const location = {
    get hash() {
      return current.hash;
    },
    get pathname() {
      return current.pathname;
    },
    get search() {
      return current.search;
    },
  };
  const window = {
    location,
    history: {
      replaceState(_state: unknown, _title: string, next: string) {
        history.push({ url: next });
        const resolved = new URL(next, current);
        current.href = resolved.href;
      },
    },
  };
  const document = {
    getElementById: (id: string) => elements.get(id) ?? null,
    createElement: (tag: string) => {
      expect(tag).toBe('input');
      return { type: '', name: '', value: '' };
    },
  };
  const context = createContext({ window, document, URLSearchParams });
  // The limit only catches a relay script that never ends; 10 s leaves room for a loaded CI machine.
  runInContext(source, context, { timeout: 10_000 });
  const form = elements.get('relay') as FakeElement;
  return {
    form,
    posted: form.children.map((c) => [c.name, c.value]),
    body: new URLSearchParams(form.children.map((c) => [c.name, c.value])).toString(),
    history,
    addressBar: current.href,
    visible: (id: string) => !(elements.get(id) as FakeElement).hidden,
  };
}

describe('fragmentRelayHtml', () => {
  it('sends the strict headers', () => {
    const { headers, nonce } = fragmentRelayHtml();
    expect(headers).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
  });

  it('puts the same nonce in the header and on the only script tag, fresh per call', () => {
    const first = fragmentRelayHtml();
    const second = fragmentRelayHtml();
    expect(scriptOf(first.html).nonce).toBe(first.nonce);
    expect(first.headers['content-security-policy']).toContain(`'nonce-${first.nonce}'`);
    expect(first.nonce).not.toBe(second.nonce);
    // 128 bits as base64url = 22 characters
    expect(first.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(first.nonce, 'base64url')).toHaveLength(16);
  });

  it('uses a given nonce and refuses a short or malformed one', () => {
    const nonce = 'abcdefghijklmnopqrstuvwx';
    const page = fragmentRelayHtml({ nonce });
    expect(page.nonce).toBe(nonce);
    expect(scriptOf(page.html).nonce).toBe(nonce);
    expect(() => fragmentRelayHtml({ nonce: 'short' })).toThrow(OptionsError);
    expect(() => fragmentRelayHtml({ nonce: `${'a'.repeat(22)}"><script>` })).toThrow(/`nonce`/);
    expect(() => fragmentRelayHtml({ nonce: `${'a'.repeat(22)}' 'unsafe-inline` })).toThrow(/`nonce`/);
  });

  it('escapes a hostile action', () => {
    const action = `/cb?x="><script>alert(1)</script>&y='<img src=x onerror=alert(2)>`;
    const { html } = fragmentRelayHtml({ action });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(
      'action="/cb?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;y=&#39;&lt;img src=x onerror=alert(2)&gt;"',
    );
  });

  it('refuses an action on another origin or scheme', () => {
    expect(() => fragmentRelayHtml({ action: 'javascript:alert(1)' })).toThrow(OptionsError);
    expect(() => fragmentRelayHtml({ action: '//evil.example/cb' })).toThrow(/same-origin/);
    expect(() => fragmentRelayHtml({ action: '/\\evil.example/cb' })).toThrow(/same-origin/);
    expect(() => fragmentRelayHtml({ action: 'cb' })).toThrow(/`action`/);
    expect(() => fragmentRelayHtml({ action: '' })).toThrow(/`action`/);
    expect(() => fragmentRelayHtml({ action: 'https://shop.example/cb' })).not.toThrow();
  });

  it('reflects no request data: the page is the same whatever the request', () => {
    const a = fragmentRelayHtml({ nonce: 'n'.repeat(22) });
    const b = fragmentRelayHtml({ nonce: 'n'.repeat(22) });
    expect(a.html).toBe(b.html);
  });

  it('has a noscript message, a POST form of urlencoded fields, and no inline handlers or styles', () => {
    const { html } = fragmentRelayHtml();
    expect(html).toMatch(/<noscript>.*JavaScript.*<\/noscript>/);
    expect(element(html, 'relay').attributes).toMatchObject({
      method: 'post',
      enctype: 'application/x-www-form-urlencoded',
    });
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/<style|style=/i);
  });

  it('posts the exact fields of an id_token fragment and clears the fragment', () => {
    const { html } = fragmentRelayHtml();
    const idToken = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
    const run = runRelay(
      html,
      `https://shop.example/callback#id_token=${idToken}&state=abc%2B%2F%3D&session_state=x+y`,
    );
    expect(run.posted).toEqual([
      ['id_token', idToken],
      ['state', 'abc+/='],
      ['session_state', 'x y'],
    ]);
    expect(run.form.submitted).toBe(1);
    expect(run.form.getAttribute('action')).toBe('/callback');
    expect(run.history).toEqual([{ url: '/callback' }]);
    expect(run.addressBar).toBe('https://shop.example/callback');
    expect(run.visible('sending')).toBe(true);
    expect(run.visible('empty')).toBe(false);
    // what the server receives decodes to the same values
    expect(Object.fromEntries(new URLSearchParams(run.body))).toEqual({
      id_token: idToken,
      state: 'abc+/=',
      session_state: 'x y',
    });
  });

  it('posts the exact fields of an error fragment, to the given action', () => {
    const { html } = fragmentRelayHtml({ action: '/auth/callback' });
    const run = runRelay(
      html,
      'https://shop.example/auth/callback?from=op#error=invalid_request&error_description=Response%20type%20is%20not%20registered&state=s1',
    );
    expect(run.posted).toEqual([
      ['error', 'invalid_request'],
      ['error_description', 'Response type is not registered'],
      ['state', 's1'],
    ]);
    expect(run.form.submitted).toBe(1);
    expect(run.form.getAttribute('action')).toBe('/auth/callback');
    expect(run.addressBar).toBe('https://shop.example/auth/callback?from=op');
  });

  it('keeps repeated parameters in order', () => {
    const run = runRelay(fragmentRelayHtml().html, 'https://shop.example/cb#a=1&a=2&b=');
    expect(run.posted).toEqual([
      ['a', '1'],
      ['a', '2'],
      ['b', ''],
    ]);
  });

  it('with an empty fragment shows a message and posts nothing', () => {
    for (const url of ['https://shop.example/callback', 'https://shop.example/callback#']) {
      const run = runRelay(fragmentRelayHtml().html, url);
      expect(run.posted).toEqual([]);
      expect(run.form.submitted).toBe(0);
      expect(run.visible('empty')).toBe(true);
      expect(run.visible('working')).toBe(false);
      expect(run.visible('sending')).toBe(false);
    }
  });
});
