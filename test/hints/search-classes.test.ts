import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/hints/search/index.js';
import type { HintEntry } from '../../src/hints.js';

/**
 * Kinds of queries shoppers type that real institution lists made fail (invented names here, one
 * per kind, with the look-alike that used to win).
 */
const entry = (entityId: string, names: Record<string, string>, country = 'DE'): HintEntry => ({
  entityId,
  names,
  country,
});
const UNI = entry('https://login.uni.example/idp', { en: 'University of Beispielland' }, 'LI');
const AUTH = entry('https://idp.auth.example/saml', { en: 'Aristocles University of Thessaly' }, 'GR');
const UNIVERSE = entry('https://idp.universe-college.example/idp', { en: 'Universe College Example' }, 'LI');
const MUEN = entry('https://idp.tu-muenchhausen.example/idp', {
  de: 'Technische Universität Münchhausen',
  en: 'Technical University of Munchhausen',
});
const KOELN = entry('https://idp.hfmt-koelnstadt.example/idp', {
  de: 'Hochschule für Musik und Tanz Kölnstadt',
});
const LIA = entry('https://idp.lia.example/idp', {
  en: 'Ludwigsheim Institute of Arts (LIA)',
  de: 'Kunstakademie Ludwigsheim an der Saale',
});
const SAALE = entry('https://idp.saale-arts.example/idp', { en: 'Saale Arts College' });
const FU = entry('https://idp.fu-nordstadt.example/idp', { de: 'Freie Universität Nordstadt' });
const HWR = entry('https://idp.hwr-nordstadt.example/idp', {
  de: 'Hochschule für Wirtschaft und Recht Nordstadt',
});
const HRW = entry('https://idp.hs-rheinwest.example/idp', { de: 'Hochschule Rheinau West' });
const WEST = entry('https://idp.west-archive.example/idp', { en: 'Westfield Archive' });

const index = new SearchIndex([UNIVERSE, UNI, AUTH, MUEN, KOELN, LIA, SAALE, FU, HWR, HRW, WEST]);
const first = (q: string, lang?: string) => index.search(q, lang === undefined ? {} : { lang })[0];

describe('search, kinds of queries real lists taught', () => {
  it('finds an e-mail address or a domain whose label is a common word (uni, auth)', () => {
    expect(first('jan@uni.example')).toMatchObject({ entityId: UNI.entityId, match: 'host' });
    expect(first('jan.jansen@student.auth.example')).toMatchObject({
      entityId: AUTH.entityId,
      match: 'host',
    });
    // A bare domain: the institution under it before names with the same words.
    expect(first('uni.example')).toMatchObject({ entityId: UNI.entityId, matchedText: 'login.uni.example' });
    // Control: the words alone find the names.
    expect(first('uni example')?.entityId).toBe(UNIVERSE.entityId);
  });

  it('finds ue, oe, ae typed for ü, ö, ä, and highlights the letters they stand for', () => {
    expect(first('muenchhausen')?.entityId).toBe(MUEN.entityId);
    expect(index.search('Universitaet Muenchh', { lang: 'de' })[0]).toMatchObject({
      entityId: MUEN.entityId,
      match: 'word',
      name: 'Technische Universität Münchhausen',
      ranges: [
        [11, 22],
        [23, 29],
      ],
    });
    expect(first('Hochschule fuer Musik und Tanz Koelnstadt')?.entityId).toBe(KOELN.entityId);
    expect(first('koelnst')).toMatchObject({ entityId: KOELN.entityId, ranges: [[30, 36]] });
    // The plain fold still works, and "ue" does not match a plain u elsewhere.
    expect(first('munchhausen')?.entityId).toBe(MUEN.entityId);
    expect(index.search('tuenchhausen')).toEqual([]);
  });

  it('finds initials or a place that only the name in another language holds', () => {
    // "LIA" is only in the English name, "Saale" only in the German one.
    expect(index.search('lia saale', { lang: 'en' })[0]).toMatchObject({
      entityId: LIA.entityId,
      match: 'word',
      name: 'Ludwigsheim Institute of Arts (LIA)',
      ranges: [[31, 34]],
    });
    // Words of one name still rank above words found across names.
    expect(index.search('arts saale').map((r) => r.entityId)).toEqual([SAALE.entityId, LIA.entityId]);
  });

  it('reads initials typed in capitals beside a place as initials', () => {
    expect(first('FU Nordstadt')).toMatchObject({ entityId: FU.entityId, match: 'acronym' });
    // Typed in lower case, "fu" is also the start of "für": both are listed.
    expect(
      index
        .search('fu nordstadt')
        .map((r) => r.entityId)
        .sort(),
    ).toEqual([FU.entityId, HWR.entityId].sort());
    expect(first('HMT Kölnstadt')?.entityId).toBe(KOELN.entityId);
    // Every word short enough to be initials: the place drives.
    expect(first('hr west')).toMatchObject({ entityId: HRW.entityId, match: 'acronym' });
  });
});
