import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCallback } from '../../src/rp/callback-input.js';
import { ValidationError } from '../../src/rp/errors.js';

const BASE = 'https://shop.example/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A node request carrying `body`, as node:http hands it over. */
function nodeRequest(body: string, headers: Record<string, string> = FORM) {
  const req = Object.assign(new PassThrough(), { method: 'POST', url: '/callback', headers });
  req.end(body);
  return req as unknown as import('node:http').IncomingMessage;
}

describe('readCallback: the form body', () => {
  const state = `state=${'s'.repeat(40)}&code=abc`;

  it('reads a form POST from a Web Request and a node request alike', async () => {
    const web = await readCallback(new Request(BASE, { method: 'POST', headers: FORM, body: state }), BASE);
    const node = await readCallback(nodeRequest(state), BASE);
    expect(web.source).toBe('form');
    expect(Object.fromEntries(web.params)).toEqual(Object.fromEntries(node.params));
    expect(web.params.get('code')).toBe('abc');
  });

  it('refuses a form over 64 KiB, streamed or declared, without reading it whole', async () => {
    const big = `${state}&pad=${'x'.repeat(64 * 1024)}`;
    const streamed = new Request(BASE, {
      method: 'POST',
      headers: FORM,
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    const declared = new Request(BASE, {
      method: 'POST',
      headers: { ...FORM, 'content-length': String(big.length) },
      body: big,
    });
    for (const request of [streamed, declared]) {
      const error = await readCallback(request, BASE).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toMatch(/too large/);
    }
    const node = await readCallback(nodeRequest(big), BASE).catch((e: unknown) => e);
    expect(node).toBeInstanceOf(ValidationError);
    expect((node as ValidationError).message).toMatch(/too large/);
  });

  it('refuses another media type (parameters and case ignored for the form type)', async () => {
    const json = new Request(BASE, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: state,
    });
    await expect(readCallback(json, BASE)).rejects.toBeInstanceOf(ValidationError);
    const upper = new Request(BASE, {
      method: 'POST',
      headers: { 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' },
      body: state,
    });
    expect((await readCallback(upper, BASE)).params.get('code')).toBe('abc');
  });
});
