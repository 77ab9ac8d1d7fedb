import { describe, expect, it } from 'vitest';
import { detectHintFeedShape, parseHintFeed } from '../../src/hints.js';

const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const URN = 'urn:mace:terena.org:nl:vu:idp';

/** `fn` throws a HintFeedError with this code. */
function expectCode(fn: () => unknown, code: string): void {
  expect(fn).toThrow(expect.objectContaining({ name: 'HintFeedError', code }));
}

describe('detectHintFeedShape', () => {
  it('tells the three shapes apart by their keys and values', () => {
    expect(detectHintFeedShape({ NL: { [TUD]: { en: 'TU Delft' } } })).toBe('combined');
    expect(detectHintFeedShape({ nl: {}, be: {} })).toBe('combined');
    expect(detectHintFeedShape({ [TUD]: { en: 'TU Delft' }, [URN]: {} })).toBe('per-country');
    expect(detectHintFeedShape({ [TUD]: 'TU Delft', [URN]: 'VU' })).toBe('flat');
  });

  it('refuses a document mixing country codes and entityIDs', () => {
    expectCode(() => detectHintFeedShape({ NL: {}, [TUD]: { en: 'x' } }), 'feed_ambiguous_shape');
    expectCode(
      () => detectHintFeedShape({ NL: { [URN]: { en: 'y' } }, [TUD]: { en: 'x' } }),
      'feed_ambiguous_shape',
    );
  });

  it('reads a bare id beside entityIDs as a bad entry, not as a group, even when it looks like a region', () => {
    expect(detectHintFeedShape({ [TUD]: { en: 'x' }, saxion: { nl: 'Saxion' }, 'agderfk.no': {} })).toBe(
      'per-country',
    );
    expect(detectHintFeedShape({ [TUD]: 'x', hhs: 'Haagse Hogeschool' })).toBe('flat');
    expect(detectHintFeedShape({ nl: { [TUD]: { en: 'x' } }, 'North America': {} })).toBe('combined');
  });

  it('refuses a document mixing flat and per-language names', () => {
    expectCode(() => detectHintFeedShape({ [TUD]: 'x', [URN]: { en: 'y' } }), 'feed_ambiguous_shape');
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['a string', 'x'],
    ['a key that is neither', { 'Meta data': {} }],
    ['a three-letter code in capitals', { NLD: {} }],
  ])('refuses %s as feed_invalid_shape', (_name, doc) => {
    expectCode(() => detectHintFeedShape(doc), 'feed_invalid_shape');
  });

  it('refuses an empty document as feed_empty', () => {
    expectCode(() => detectHintFeedShape({}), 'feed_empty');
  });
});

describe('parseHintFeed', () => {
  it('reads a combined feed with upper-cased countries', () => {
    const { shape, entries } = parseHintFeed({ nl: { [TUD]: { EN: 'TU Delft', nl_NL: 'TU Delft NL' } } });
    expect(shape).toBe('combined');
    expect(entries.get(TUD)).toEqual({
      entityId: TUD,
      names: { en: 'TU Delft', 'nl-nl': 'TU Delft NL' },
      country: 'NL',
    });
  });

  it('gives per-country and flat entries the source country, flat names the tag und', () => {
    expect(parseHintFeed({ [TUD]: { en: 'TU Delft' } }, { country: 'nl' }).entries.get(TUD)?.country).toBe(
      'NL',
    );
    expect(parseHintFeed({ [TUD]: { en: 'TU Delft' } }).entries.get(TUD)?.country).toBeUndefined();
    const flat = parseHintFeed({ [URN]: ' VU Amsterdam ' }, { country: 'NL' });
    expect(flat.shape).toBe('flat');
    expect(flat.entries.get(URN)).toEqual({ entityId: URN, names: { und: 'VU Amsterdam' }, country: 'NL' });
  });

  it('drops blank names but keeps the institution', () => {
    expect(parseHintFeed({ [TUD]: { en: '  ', nl: 'TU Delft' } }).entries.get(TUD)?.names).toEqual({
      nl: 'TU Delft',
    });
    expect(parseHintFeed({ [TUD]: {} }).entries.get(TUD)?.names).toEqual({});
  });

  it('an entityID listed under two countries keeps the first country, names completed', () => {
    const { entries } = parseHintFeed({
      NL: { [TUD]: { en: 'TU Delft' } },
      BE: { [TUD]: { en: 'x', fr: 'TU Delft FR' } },
    });
    expect(entries.get(TUD)).toEqual({
      entityId: TUD,
      names: { en: 'TU Delft', fr: 'TU Delft FR' },
      country: 'NL',
    });
  });

  it('returns frozen entries', () => {
    const entry = parseHintFeed({ [TUD]: { en: 'TU Delft' } }).entries.get(TUD)!;
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry.names)).toBe(true);
  });

  /** The feed with one good entry beside the bad one: only the bad one is skipped. */
  it.each([
    [
      'a name that is not a string',
      { [URN]: { en: 42 } },
      [URN],
      /expected a name \(string\) in "en", got number/,
    ],
    ['an entityID with spaces', { 'https://a b': { en: 'x' } }, ['https://a b'], /not an entityID/],
    [
      'an entityID over 1024 characters',
      { [`https://a.example/${'x'.repeat(1024)}`]: { en: 'x' } },
      [`https://a.example/${'x'.repeat(82)}…`],
      /1024/,
    ],
    ['a bare host name', { 'agderfk.no': { nb: 'Agder' } }, ['agderfk.no'], /not an entityID/],
    [
      'a name with %20',
      { 'Universiteit%20Utrecht': { nl: 'UU' } },
      ['Universiteit%20Utrecht'],
      /not an entityID/,
    ],
    ['a bare name that looks like a region', { saxion: { nl: 'Saxion' } }, ['saxion'], /not an entityID/],
    ['a language tag that is not one', { [URN]: { 'e n': 'x' } }, [URN], /"e n" is not a language tag/],
    ['a name over 1024 characters', { [URN]: { en: 'x'.repeat(1025) } }, [URN], /"en" longer than 1024/],
    ['names that are null', { [URN]: null }, [URN], /expected an object of names by language, got null/],
  ])('per-country: skips %s, keeps the rest and says why', (_name, bad, path, reason) => {
    const parsed = parseHintFeed({ [TUD]: { en: 'TU Delft' }, ...bad });
    expect([...parsed.entries.keys()]).toEqual([TUD]);
    expect(parsed.skippedCount).toBe(1);
    expect(parsed.skipped).toEqual([{ path, reason: expect.stringMatching(reason) }]);
  });

  it.each([
    ['a flat name that is not a string', { [URN]: 5 }, [URN], /expected a name \(string\), got number/],
    ['a flat bare name', { HHS: 'Haagse Hogeschool' }, ['HHS'], /not an entityID/],
    ['a flat entityID with spaces', { 'https://a b': 'x' }, ['https://a b'], /not an entityID/],
  ])('flat: skips %s', (_name, bad, path, reason) => {
    const parsed = parseHintFeed({ [TUD]: 'TU Delft', ...bad });
    expect(parsed.shape).toBe('flat');
    expect([...parsed.entries.keys()]).toEqual([TUD]);
    expect(parsed.skipped).toEqual([{ path, reason: expect.stringMatching(reason) }]);
  });

  it.each([
    [
      'an entityID that is not one',
      { NL: { [TUD]: { en: 'x' }, 'not-an-id': { en: 'y' } } },
      ['NL', 'not-an-id'],
      /not an entityID/,
    ],
    [
      'a bad language tag',
      { NL: { [TUD]: { en: 'x' }, [URN]: { en_: 'y' } } },
      ['NL', URN],
      /"en_" is not a language tag/,
    ],
    [
      'a group that is not a country or region',
      { NL: { [TUD]: { en: 'x' } }, 'North America': { [URN]: { en: 'y' } } },
      ['North America'],
      /not a country code or region name/,
    ],
    [
      'a country whose value is an array',
      { NL: { [TUD]: { en: 'x' } }, BE: [] },
      ['BE'],
      /expected an object of institutions by entityID, got an array/,
    ],
  ])('combined: skips %s', (_name, doc, path, reason) => {
    const parsed = parseHintFeed(doc);
    expect(parsed.shape).toBe('combined');
    expect([...parsed.entries.keys()]).toEqual([TUD]);
    expect(parsed.skipped).toEqual([{ path, reason: expect.stringMatching(reason) }]);
  });

  it('reports the first 20 skipped entries in feed order and counts them all', () => {
    const doc: Record<string, unknown> = { [TUD]: { en: 'TU Delft' } };
    for (let i = 0; i < 500; i++) doc[`host${i}.example.org`] = { en: `Institution ${i}` };
    const parsed = parseHintFeed(doc);
    expect(parsed.entries.size).toBe(1);
    expect(parsed.skippedCount).toBe(500);
    expect(parsed.skipped.map((s) => s.path[0])).toEqual(
      Array.from({ length: 20 }, (_, i) => `host${i}.example.org`),
    );
  });

  it('shows a skipped key cut at 100 characters, control and formatting characters escaped', () => {
    const parsed = parseHintFeed({
      [TUD]: { en: 'TU Delft' },
      'evil\nINFO forged line\u202e': { en: 'x' },
      ['y'.repeat(500)]: { en: 'x' },
    });
    expect(parsed.skipped.map((s) => s.path[0])).toEqual([
      'evil\\u000aINFO forged line\\u202e',
      `${'y'.repeat(100)}…`,
    ]);
  });

  it('never puts a name into a reason', () => {
    const parsed = parseHintFeed({
      [TUD]: { en: 'TU Delft' },
      'bad id': { en: 'secret-looking name' },
      [URN]: { en: 'x'.repeat(2000) },
    });
    expect(parsed.skippedCount).toBe(2);
    expect(JSON.stringify(parsed.skipped)).not.toMatch(/secret-looking|xxxx/);
  });

  it('a valid feed skips nothing', () => {
    const parsed = parseHintFeed({ NL: { [TUD]: { en: 'TU Delft' } } });
    expect(parsed.skipped).toEqual([]);
    expect(parsed.skippedCount).toBe(0);
  });

  it.each([
    ['a country value that is not an object', { NL: 'x' }, /"NL", holds string/],
    [
      'an entityID under a country that is not one',
      { NL: { 'not-an-id': { en: 'x' } } },
      /no valid institution: 1 entry skipped, the first at "NL" → "not-an-id": not an entityID/,
    ],
    ['a country whose value is an array', { NL: [] }, /"NL", holds an array/],
    ['names that are null', { [TUD]: null }, /expected an object of names by language, got null/],
    [
      'only bare host names',
      { 'a.example.org': { en: 'x' }, 'b.example.org': { en: 'y' } },
      /neither an entityID/,
    ],
    [
      'entries that are all invalid',
      { [TUD]: { en: 1 }, [URN]: { 'e n': 'x' } },
      /no valid institution: 2 entries skipped/,
    ],
  ])('refuses %s with feed_invalid_shape: not one valid entry', (_name, doc, message) => {
    expect(() => parseHintFeed(doc)).toThrow(
      expect.objectContaining({
        name: 'HintFeedError',
        code: 'feed_invalid_shape',
        message: expect.stringMatching(message),
      }),
    );
  });

  it('refuses a combined feed whose countries are all empty', () => {
    expectCode(() => parseHintFeed({ NL: {}, BE: {} }), 'feed_empty');
  });
});
