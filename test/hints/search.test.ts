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

const pick = (results: { entityId: string; match: string }[]) => results.map((r) => [r.entityId, r.match]);

describe('HintFeed.search', () => {
  it('is case-insensitive', () => {
    expect(ids(feed.search('DELFT'))).toEqual([TUD]);
    expect(ids(feed.search('dElFt'))).toEqual([TUD]);
  });

  it('is accent-insensitive both ways', () => {
    expect(ids(feed.search('zurich', { lang: 'de' }))).toEqual([UZH, ETH]);
    expect(ids(feed.search('zürich', { lang: 'en' }))).toEqual([UZH, ETH]);
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

  it('ranks the exact name, then names and words the query starts, then acronyms and hosts, substrings, typos', () => {
    expect(feed.search('eth zurich')[0]).toMatchObject({ entityId: ETH, match: 'exact' });
    expect(pick(feed.search('univ', { lang: 'en' })).slice(0, 3)).toEqual([
      [UVA, 'prefix'],
      [ATH, 'prefix'],
      [UZH, 'prefix'],
    ]);
    expect(feed.search('univ', { lang: 'en' }).map((r) => r.match)).toEqual([
      'prefix',
      'prefix',
      'prefix',
      'word',
      'word',
      'word',
    ]);
    expect(pick(feed.search('vua'))).toEqual([[VU, 'acronym']]);
    expect(pick(feed.search('uva'))).toEqual([[UVA, 'host']]);
    expect(pick(feed.search('tudelft'))).toEqual([[TUD, 'host']]);
    expect(pick(feed.search('ech', { lang: 'en' }))).toEqual([
      [TUD, 'substring'],
      [LODZ, 'substring'],
    ]);
    expect(pick(feed.search('amsterdm'))).toEqual([
      [UVA, 'typo'],
      [VU, 'typo'],
    ]);
    expect(feed.search('university amsterdam of')[0]).toMatchObject({ entityId: UVA, match: 'word' });
  });

  it('lists an institution once, with its best match', () => {
    const results = feed.search('zurich');
    expect(ids(results)).toEqual([UZH, ETH]);
    expect(results.map((r) => r.match)).toEqual(['word', 'word']);
    expect(pick(feed.search('eth'))).toEqual([[ETH, 'prefix']]);
  });

  it("shows names in the shopper's language, falling back to English then any, and matches every language", () => {
    expect(feed.search('technische', { lang: 'nl' })).toEqual([
      {
        entityId: TUD,
        name: 'Technische Universiteit Delft',
        country: 'NL',
        match: 'prefix',
        ranges: [[0, 10]],
      },
    ]);
    // The Dutch name matched; the English one is shown, and says what matched.
    expect(feed.search('technische', { lang: 'en' })).toEqual([
      {
        entityId: TUD,
        name: 'Delft University of Technology',
        country: 'NL',
        match: 'prefix',
        ranges: [],
        matchedText: 'Technische Universiteit Delft',
      },
    ]);
    expect(feed.search('delft', { lang: 'fr' })[0]).toMatchObject({
      name: 'Delft University of Technology',
      ranges: [[0, 5]],
    });
    expect(feed.search('vrije', { lang: 'de' })[0]?.name).toBe('Vrije Universiteit Amsterdam');
    expect(feed.search('epf', { lang: 'fr-CH' })[0]?.name).toBe('EPF Zurich');
    expect(feed.search('epf', { lang: 'FR_ch' })[0]?.name).toBe('EPF Zurich');
  });

  it('highlights in the original text, accents and all', () => {
    expect(feed.search('zur', { lang: 'de' })[0]).toMatchObject({
      name: 'Universität Zürich',
      ranges: [[12, 15]],
    });
    expect(feed.search('lodz tech', { lang: 'en' })[0]).toMatchObject({
      ranges: [
        [0, 4],
        [19, 23],
      ],
    });
    expect(feed.search('lodz', { lang: 'pl' })[0]).toMatchObject({
      name: 'Politechnika Łódzka',
      ranges: [[13, 17]],
    });
  });

  it("raises the shopper's country and language without hiding the others", () => {
    expect(ids(feed.search('zurich', { country: 'ch' }))).toEqual([UZH, ETH]);
    expect(ids(feed.search('univ', { country: 'NL' })).slice(0, 2)).toEqual([UVA, TUD]);
    expect(ids(feed.search('univ', { country: 'nl' }))).toContain(UZH);
    expect(ids(feed.search('univ', { country: 'GR' }))[0]).toBe(ATH);
    expect(ids(feed.search('univ', { country: 'DE' })).length).toBe(ids(feed.search('univ')).length);
    expect(ids(feed.search('amsterdam', { lang: 'nl' }))).toEqual([UVA, VU]);
  });

  it('puts a recent choice first whatever matched it', () => {
    expect(ids(feed.search('univ', { recent: [LODZ] }))[0]).toBe(LODZ);
    expect(ids(feed.search('amsterdam', { recent: [VU, 'https://unknown.example/idp'] }))).toEqual([VU, UVA]);
    // A recent choice that does not match is not added.
    expect(ids(feed.search('delft', { recent: [VU] }))).toEqual([TUD]);
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
    expect(feed.search('u')).toHaveLength(6);
    expect(() => feed.search('u', { limit: 0 })).toThrow(OptionsError);
    expect(() => feed.search('u', { limit: 1.5 })).toThrow(OptionsError);
    expect(() => feed.search('u', { limit: 1001 })).toThrow(OptionsError);
  });

  it('an institution without names is kept but never matched by name', () => {
    expect(feed.has(NONAME)).toBe(true);
    expect(feed.displayName(NONAME)).toBeUndefined();
    expect(ids(feed.search('noname'))).toEqual([NONAME]);
    expect(feed.search('noname')[0]).toMatchObject({
      name: NONAME,
      match: 'host',
      matchedText: 'idp.noname.example',
    });
  });
});
