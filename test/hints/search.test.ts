import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HintFeed, OptionsError } from '../../src/hints.js';
import { mswFetch } from '../helpers/msw-fetch.js';

const FEED = 'https://feeds.example.org/institutions.json';
const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const UVA = 'https://idp.uva.nl/saml2/idp/metadata.php';
const VU = 'urn:mace:terena.org:nl:vu:idp';
const UZH = 'https://aai-idp.uzh.ch/idp/shibboleth';
const ETH = 'https://idp.ethz.ch/idp/shibboleth';
const ENS = 'https://idp.ens.fr/idp/shibboleth';
const LODZ = 'https://idp.p.lodz.pl/idp/shibboleth';
const ATH = 'https://idp.uoa.gr/idp/shibboleth';
const NONAME = 'https://idp.noname.example/idp';

const server = setupServer(
  http.get(FEED, () =>
    HttpResponse.json({
      NL: {
        [TUD]: { en: 'Delft University of Technology', nl: 'Technische Universiteit Delft' },
        [UVA]: { en: 'University of Amsterdam', nl: 'Universiteit van Amsterdam' },
        [VU]: { nl: 'Vrije Universiteit Amsterdam' },
      },
      CH: {
        [UZH]: { de: 'Universität Zürich', en: 'University of Zurich' },
        [ETH]: { de: 'ETH Zürich', en: 'ETH Zurich', fr: 'EPF Zurich' },
      },
      FR: { [ENS]: { fr: 'École normale supérieure', en: 'ENS Paris' } },
      PL: { [LODZ]: { pl: 'Politechnika Łódzka', en: 'Lodz University of Technology' } },
      GR: { [ATH]: { el: 'Εθνικό και Καποδιστριακό Πανεπιστήμιο Αθηνών', en: 'University of Athens' } },
      US: { [NONAME]: {} },
    }),
  ),
);

let feed: HintFeed;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  feed = new HintFeed({ sources: [FEED], fetch: mswFetch });
  expect((await feed.refresh()).status).toBe('updated');
});
afterAll(() => server.close());

const ids = (results: { entityId: string }[]) => results.map((r) => r.entityId);

describe('HintFeed.search', () => {
  it('is case-insensitive', () => {
    expect(ids(feed.search('DELFT'))).toEqual([TUD]);
    expect(ids(feed.search('dElFt'))).toEqual([TUD]);
  });

  it('is accent-insensitive both ways', () => {
    expect(ids(feed.search('zurich', { lang: 'de' }))).toEqual([ETH, UZH]);
    expect(ids(feed.search('zürich', { lang: 'en' }))).toEqual([ETH, UZH]);
    expect(ids(feed.search('ecole'))).toEqual([ENS]);
    expect(ids(feed.search('lodzka'))).toEqual([LODZ]);
    expect(ids(feed.search('ŁÓDŹ'))).toEqual([LODZ]);
    expect(ids(feed.search('πανεπιστημιο'))).toEqual([ATH]);
  });

  it('ignores punctuation and spacing', () => {
    expect(ids(feed.search('  école—normale '))).toEqual([ENS]);
    expect(feed.search('   ')).toEqual([]);
    expect(feed.search('!!!')).toEqual([]);
  });

  it('ranks name prefixes before word prefixes before substrings before all-words matches', () => {
    const results = feed.search('univ', { lang: 'en' });
    expect(results.map((r) => [r.entityId, r.match])).toEqual([
      [UVA, 'prefix'],
      [ATH, 'prefix'],
      [UZH, 'prefix'],
      [TUD, 'word'],
      [LODZ, 'word'],
      [VU, 'word'],
    ]);
    expect(feed.search('ech', { lang: 'en' }).map((r) => [r.entityId, r.match])).toEqual([
      [TUD, 'substring'],
      [LODZ, 'substring'],
    ]);
    expect(feed.search('amsterdam univ').map((r) => [r.entityId, r.match])).toEqual([
      [UVA, 'words'],
      [VU, 'words'],
    ]);
    expect(feed.search('university amsterdam of')[0]).toMatchObject({ entityId: UVA, match: 'words' });
  });

  it('lists an institution once, with its best match', () => {
    const results = feed.search('zurich');
    expect(ids(results)).toEqual([ETH, UZH]);
    expect(results.map((r) => r.match)).toEqual(['word', 'word']);
    expect(ids(feed.search('eth'))).toEqual([ETH]);
  });

  it('with lang, matches and returns the names of that language, falling back to English then any', () => {
    expect(feed.search('technische', { lang: 'nl' })).toEqual([
      { entityId: TUD, name: 'Technische Universiteit Delft', country: 'NL', match: 'prefix' },
    ]);
    // In English the Dutch name is not what is shown, so it does not match.
    expect(feed.search('technische', { lang: 'en' })).toEqual([]);
    // No French name: matched and shown by its English name.
    expect(feed.search('delft', { lang: 'fr' })).toEqual([
      { entityId: TUD, name: 'Delft University of Technology', country: 'NL', match: 'prefix' },
    ]);
    // No English name either: the first one.
    expect(feed.search('vrije', { lang: 'de' })[0]?.name).toBe('Vrije Universiteit Amsterdam');
    // A regional tag falls back to its language.
    expect(feed.search('epf', { lang: 'fr-CH' })[0]?.name).toBe('EPF Zurich');
    expect(feed.search('epf', { lang: 'FR_ch' })[0]?.name).toBe('EPF Zurich');
  });

  it('without lang matches every language and returns English names', () => {
    expect(feed.search('technische')).toEqual([
      { entityId: TUD, name: 'Delft University of Technology', country: 'NL', match: 'prefix' },
    ]);
  });

  it('filters by country, any case', () => {
    // Alphabetical by the matched name within a group: "delft university…" before "vrije universiteit…".
    expect(ids(feed.search('univ', { country: 'nl' }))).toEqual([UVA, TUD, VU]);
    expect(ids(feed.search('univ', { country: 'NL', lang: 'en' }))).toEqual([UVA, TUD, VU]);
    expect(ids(feed.search('zurich', { country: 'ch' }))).toEqual([ETH, UZH]);
    expect(feed.search('univ', { country: 'DE' })).toEqual([]);
    expect(feed.search('zurich', { country: 'NL' })).toEqual([]);
    expect(feed.search('amsterdam univ', { country: 'NL' }).map((r) => r.match)).toEqual(['words', 'words']);
  });

  it('honours limit, also across groups', () => {
    expect(feed.search('univ', { lang: 'en', limit: 2 }).map((r) => r.entityId)).toEqual([UVA, ATH]);
    expect(feed.search('univ', { lang: 'en', limit: 4 }).map((r) => r.match)).toEqual([
      'prefix',
      'prefix',
      'prefix',
      'word',
    ]);
    expect(feed.search('univ', { country: 'NL', limit: 1 })).toHaveLength(1);
    expect(feed.search('u')).toHaveLength(8);
    expect(() => feed.search('u', { limit: 0 })).toThrow(OptionsError);
    expect(() => feed.search('u', { limit: 1.5 })).toThrow(OptionsError);
    expect(() => feed.search('u', { limit: 1001 })).toThrow(OptionsError);
  });

  it('an institution without names is kept but never matched by name', () => {
    expect(feed.has(NONAME)).toBe(true);
    expect(feed.displayName(NONAME)).toBeUndefined();
    expect(ids(feed.search('noname'))).toEqual([]);
  });
});

describe('HintFeed.displayName', () => {
  it('falls back from the language to its primary tag, to English, to any name', () => {
    expect(feed.displayName(TUD, 'nl')).toBe('Technische Universiteit Delft');
    expect(feed.displayName(TUD, 'nl-BE')).toBe('Technische Universiteit Delft');
    expect(feed.displayName(TUD, 'NL')).toBe('Technische Universiteit Delft');
    expect(feed.displayName(TUD, 'de')).toBe('Delft University of Technology');
    expect(feed.displayName(TUD)).toBe('Delft University of Technology');
    expect(feed.displayName(VU, 'en')).toBe('Vrije Universiteit Amsterdam');
    expect(feed.displayName('https://unknown.example/idp', 'en')).toBeUndefined();
  });
});
