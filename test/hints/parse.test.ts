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

  it.each([
    [
      'a name that is not a string',
      { [TUD]: { en: 42 } },
      /"https:\/\/idp\.tudelft\.nl\/idp\/shibboleth" → "en"/,
    ],
    ['an entityID with spaces', { 'https://a b': { en: 'x' } }, /not an entityID/],
    ['an entityID over 1024 characters', { [`https://a.example/${'x'.repeat(1024)}`]: { en: 'x' } }, /1024/],
    ['a language tag that is not one', { [TUD]: { 'e n': 'x' } }, /not a language tag/],
    ['a country value that is not an object', { NL: 'x' }, /"NL"/],
    ['an entityID under a country that is not one', { NL: { 'not-an-id': { en: 'x' } } }, /not an entityID/],
    ['a name over 1024 characters', { [TUD]: { en: 'x'.repeat(1025) } }, /"en"/],
    [
      'a flat feed with an entityID with spaces',
      { 'https://a b': 'x' },
      /"https:\/\/a b": key not an entityID/,
    ],
    [
      'a combined feed with a bad language tag',
      { NL: { [TUD]: { en_: 'x' } } },
      /"NL" → .* → "en_": key not a language tag/,
    ],
    ['a flat name that is not a string', { [TUD]: 'x', [URN]: 5 }, /expected a name \(string\), got number/],
    [
      'a country whose value is an array',
      { NL: [] },
      /"NL": expected an object of institutions by entityID, got an array/,
    ],
    ['names that are null', { [TUD]: null }, /expected an object of names by language, got null/],
  ])('refuses %s with feed_invalid_shape naming the path', (_name, doc, message) => {
    expect(() => parseHintFeed(doc)).toThrow(
      expect.objectContaining({
        name: 'HintFeedError',
        code: expect.stringMatching(/feed_invalid_shape|feed_ambiguous_shape/),
        message: expect.stringMatching(message),
      }),
    );
  });

  it('refuses a combined feed whose countries are all empty', () => {
    expectCode(() => parseHintFeed({ NL: {}, BE: {} }), 'feed_empty');
  });
});
