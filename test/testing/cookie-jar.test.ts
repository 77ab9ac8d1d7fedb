import { describe, expect, it } from 'vitest';
import { TestCookieJar } from '../../src/testing.js';

function setCookies(...lines: string[]): Response {
  const headers = new Headers();
  for (const line of lines) headers.append('set-cookie', line);
  return new Response(null, { headers });
}

describe('TestCookieJar (the one jar of the scripted browsers)', () => {
  it('keeps cookies per origin and honours Path', () => {
    const jar = new TestCookieJar();
    jar.store(setCookies('a=1; Path=/', 'b=2; Path=/cb'), 'http://127.0.0.1:1000/start');
    jar.store(setCookies('c=3'), 'http://127.0.0.1:2000/');
    expect(jar.header('http://127.0.0.1:1000/')).toBe('a=1');
    expect(jar.header('http://127.0.0.1:1000/cb?x=1')).toBe('a=1; b=2');
    expect(jar.header('http://127.0.0.1:1000/cbx')).toBe('a=1');
    expect(jar.header('http://127.0.0.1:2000/')).toBe('c=3');
    expect(jar.header('http://127.0.0.1:3000/')).toBeUndefined();
    expect(jar.names('http://127.0.0.1:1000')).toEqual(['a', 'b']);
    expect(jar.get('c', 'http://127.0.0.1:1000/')).toBeUndefined();
    expect(jar.get('c')).toBe('3');
    // Without a URL: every cookie held (the provider walker's original use).
    expect(jar.header()).toBe('a=1; b=2; c=3');
  });

  it('deletes on Max-Age=0 or a past Expires, and replaces by name', () => {
    const jar = new TestCookieJar();
    const at = 'https://shop.example/';
    jar.store(setCookies('a=1', 'b=2', 'c=3'), at);
    jar.store(
      setCookies('a=; Max-Age=0', 'b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'c=4; Max-Age=60'),
      at,
    );
    expect(jar.header(at)).toBe('c=4');
  });

  it('stores a response without a URL for every origin (an in-process provider)', () => {
    const jar = new TestCookieJar();
    jar.store(setCookies('s=1'));
    expect(jar.header('https://op.affiliation.test/x')).toBe('s=1');
  });
});
