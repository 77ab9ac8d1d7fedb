import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_FORMAT, readCacheFile } from '../../src/hints/cache-file.js';
import { HintFeedError } from '../../src/hints/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'av-cache-file-'));
let n = 0;
function file(content: unknown): string {
  const p = join(dir, `cache-${n++}.json`);
  writeFileSync(p, JSON.stringify(content));
  return p;
}

const good = {
  format: CACHE_FORMAT,
  version: 1,
  savedAt: '2026-11-25T10:00:00.000Z',
  sources: [
    {
      url: 'https://feeds.example.org/nl.json',
      country: 'NL',
      etag: '"abc"',
      lastModified: 'Tue, 24 Nov 2026 10:00:00 GMT',
      sha256: 'x',
      fetchedAt: '2026-11-25T09:59:59.123Z',
      feed: { 'https://idp.example.org/idp': { en: 'Example University' } },
      unknownField: 'dropped',
    },
    { url: 'https://feeds.example.org/africa.json', region: 'africa' },
  ],
};

describe('hints cache file', () => {
  it('reads the known fields of a good file and drops the rest', async () => {
    const read = await readCacheFile(file(good));
    expect(read).toEqual({
      ...good,
      sources: [{ ...good.sources[0], unknownField: undefined }, good.sources[1]],
    });
    expect(read?.sources[0]).not.toHaveProperty('unknownField');
  });

  it('is undefined when the file does not exist', async () => {
    expect(await readCacheFile(join(dir, 'missing.json'))).toBeUndefined();
  });

  const bad: [string, unknown, string][] = [
    ['an array', [], 'not a JSON object'],
    ['another format', { ...good, format: 'other' }, '"format"'],
    ['another version', { ...good, version: 2 }, '"version" is not 1'],
    ['a savedAt that is not a time', { ...good, savedAt: 'yesterday' }, '"savedAt"'],
    ['a savedAt with an offset', { ...good, savedAt: '2026-11-25T10:00:00+01:00' }, '"savedAt"'],
    ['an impossible date', { ...good, savedAt: '2026-13-45T10:00:00Z' }, '"savedAt"'],
    ['sources not an array', { ...good, sources: {} }, '"sources" is not an array'],
    ['a source not an object', { ...good, sources: ['x'] }, 'sources[0] is not an object'],
    ['a source without a url', { ...good, sources: [{ region: 'africa' }] }, 'sources[0].url'],
    ['an empty url', { ...good, sources: [{ url: '' }] }, 'sources[0].url'],
    [
      'a country that is not a string',
      { ...good, sources: [{ url: 'u', country: 1 }] },
      'sources[0].country',
    ],
    ['an etag that is not a string', { ...good, sources: [{ url: 'u', etag: null }] }, 'sources[0].etag'],
    ['a bad fetchedAt', { ...good, sources: [{ url: 'u', fetchedAt: 5 }] }, 'sources[0].fetchedAt'],
  ];
  it.each(bad)('refuses %s with cache_invalid saying what is wrong', async (_, content, why) => {
    const p = file(content);
    const error = await readCacheFile(p).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HintFeedError);
    expect((error as HintFeedError).code).toBe('cache_invalid');
    expect((error as HintFeedError).message).toBe(`${p} is not a hints cache file of this version`);
    expect(((error as HintFeedError).cause as Error).message).toContain(why);
  });
});
