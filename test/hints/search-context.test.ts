/**
 * Two classes of miss on real names, with fixtures of our own: an acronym that institutions of several
 * countries share ("uva": Uva Wellassa University in Sri Lanka, the University of Amsterdam) ranks the
 * one of the shopper's country or language first when the search knows it; a word typed with two
 * neighbouring letters swapped ("wein" for "wien") still finds.
 */
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/hints/search/index.js';
import type { HintEntry } from '../../src/hints.js';

const UVA_NL = 'https://login.uva.nl/saml2/idp/metadata.php';
const UVA_LK = 'https://idp.uwu.ac.lk/idp/shibboleth';
const WIEN = 'https://idp.univie.ac.at/shibboleth';

const entries: HintEntry[] = [
  { entityId: UVA_LK, country: 'LK', names: { en: 'Uva Wellassa University', si: 'ඌව වෙල්ලස්ස විශ්වවිද්‍යාලය' } },
  {
    entityId: UVA_NL,
    country: 'NL',
    names: { en: 'University of Amsterdam', nl: 'Universiteit van Amsterdam' },
  },
  { entityId: 'https://idp.uvic.ca/idp', country: 'CA', names: { en: 'University of Victoria' } },
  { entityId: 'https://sso.uvalde.edu/idp', country: 'US', names: { en: 'Uvalde Community College' } },
  { entityId: WIEN, country: 'AT', names: { de: 'Universität Wien', en: 'University of Vienna' } },
  { entityId: 'https://idp.wu.ac.at/idp', country: 'AT', names: { de: 'Wirtschaftsuniversität Wien' } },
  {
    entityId: 'https://idp.ph-weingarten.de/idp',
    country: 'DE',
    names: { de: 'Pädagogische Hochschule Weingarten' },
  },
  { entityId: 'https://idp.wein-akademie.at/idp', country: 'AT', names: { de: 'Weinakademie Österreich' } },
  {
    entityId: 'https://idp.weizmann.ac.il/idp',
    country: 'IL',
    names: { en: 'Weizmann Institute of Science' },
  },
].map((e) => ({ ...e, name: Object.values(e.names)[0]! }) as unknown as HintEntry);

const index = new SearchIndex(entries);
const ids = (query: string, options = {}) => index.search(query, options).map((r) => r.entityId);

describe('an acronym shared by institutions of several countries', () => {
  it.each([
    [{ country: 'NL' }, UVA_NL],
    [{ lang: 'nl' }, UVA_NL],
    [{ lang: 'nl-BE' }, UVA_NL],
    [{ country: 'LK' }, UVA_LK],
    [{ lang: 'si' }, UVA_LK],
    [{ country: 'LK', lang: 'nl' }, UVA_LK], // the country says more than the page's language
  ])('"uva" with %j: the shopper’s one first', (options, first) => {
    const found = ids('uva', options);
    expect(found[0]).toBe(first);
    // Both stay found: a boost orders results, it never hides one.
    expect(found).toEqual(expect.arrayContaining([UVA_NL, UVA_LK]));
  });

  it('without a country or language, the name that is the word itself comes first, as before', () => {
    const found = ids('uva');
    expect(found[0]).toBe(UVA_LK);
    expect(found).toContain(UVA_NL);
    // "UvA" in capitals reads as an acronym: the host label and initials come before longer words.
    expect(ids('UvA', { country: 'NL' })[0]).toBe(UVA_NL);
  });

  it('a name of the shopper’s country that merely starts with the word stays above initials elsewhere', () => {
    // "Uvalde" (US) starts with "uva": for a US shopper it is first, the two whole matches follow.
    expect(ids('uva', { country: 'US' })[0]).toBe('https://sso.uvalde.edu/idp');
  });
});

describe('two neighbouring letters swapped', () => {
  it.each(['wein', 'wine', 'iwen'])('"%s" still finds Wien (Vienna)', (query) => {
    const wien = index.search(query, { lang: 'de' }).find((r) => r.entityId === WIEN);
    expect(wien, query).toMatchObject({ match: 'typo', name: 'Universität Wien' });
    // The word that was meant is highlighted.
    expect(wien!.name.slice(...wien!.ranges[0]!)).toBe('Wien');
    // In English the name says Vienna; the German name that matched is shown beside it.
    expect(index.search(query).find((r) => r.entityId === WIEN)).toMatchObject({
      name: 'University of Vienna',
      matchedText: 'Universität Wien',
    });
  });

  it('names that start with what was typed come first; an Austrian shopper sees Vienna next', () => {
    const found = ids('wein', { country: 'AT' });
    expect(found.slice(0, 2)).toEqual([
      'https://idp.wein-akademie.at/idp',
      'https://idp.ph-weingarten.de/idp',
    ]);
    expect(found.slice(2, 4).sort()).toEqual([WIEN, 'https://idp.wu.ac.at/idp'].sort());
  });

  it('a four-letter word gets no other typo: one letter replaced finds nothing', () => {
    for (const query of ['wiem', 'wiwn', 'wiet']) expect(ids(query), query).not.toContain(WIEN);
    expect(ids('weiz')).toEqual(['https://idp.weizmann.ac.il/idp']);
  });
});
