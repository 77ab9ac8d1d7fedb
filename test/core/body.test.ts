import { describe, expect, it } from 'vitest';
import { mediaType, readBounded } from '../../src/core/body.js';

const tooLarge = (declared?: number) =>
  new Error(declared === undefined ? 'streamed too large' : `declared ${declared}`);

function stream(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const part = parts.shift();
      if (part === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(part));
    },
  });
}

describe('mediaType', () => {
  it.each([
    ['Application/JSON; charset=utf-8', 'application/json'],
    [' text/html ', 'text/html'],
    ['application/x-www-form-urlencoded;charset=UTF-8', 'application/x-www-form-urlencoded'],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%j → %j', (header, type) => {
    expect(mediaType(header)).toBe(type);
  });
});

describe('readBounded', () => {
  it('joins the chunks in order, up to the limit itself', async () => {
    const bytes = await readBounded(stream('ab', 'cd', 'ef'), 6, tooLarge);
    expect(new TextDecoder().decode(bytes)).toBe('abcdef');
  });

  it('refuses a body one byte over the limit as it streams, and one declared too large before reading', async () => {
    await expect(readBounded(stream('ab', 'cd', 'efg'), 6, tooLarge)).rejects.toThrow('streamed too large');
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({
      pull() {
        pulled = true;
      },
    });
    await expect(readBounded(body, 6, tooLarge, { declaredLength: '7' })).rejects.toThrow('declared 7');
    expect(pulled).toBe(false);
  });

  it('gives no bytes for no body', async () => {
    expect((await readBounded(null, 1, tooLarge)).byteLength).toBe(0);
  });

  it('stops a body that never ends when the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const reading = readBounded(endless, 100, tooLarge, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(reading).rejects.toThrow('stop');
  });
});
