/**
 * Synthetic hint feeds of the real shape, deterministic (seeded): entityIDs that are URLs or URNs,
 * display names in one to three languages with accents and non-Latin scripts, spread over countries.
 * Used by the tests and by bench/hints.bench.ts.
 */

const COUNTRIES = [
  'AT',
  'AU',
  'BE',
  'BG',
  'BR',
  'CA',
  'CH',
  'CL',
  'CO',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IL',
  'IN',
  'IS',
  'IT',
  'JP',
  'KR',
  'LT',
  'LU',
  'LV',
  'MK',
  'MT',
  'MX',
  'NL',
  'NO',
  'NZ',
  'PL',
  'PT',
  'RO',
  'RS',
  'SE',
  'SI',
  'SK',
  'TR',
  'UA',
  'US',
  'ZA',
  'AR',
  'AM',
  'AZ',
  'BY',
  'CR',
  'EC',
  'EG',
  'GE',
  'ID',
  'KE',
  'KZ',
  'LK',
  'MA',
  'MD',
  'ME',
  'MY',
  'NG',
  'NP',
  'OM',
  'PE',
  'PH',
  'PK',
  'QA',
  'SG',
  'TH',
  'TN',
  'TW',
  'UG',
  'UY',
  'VN',
  'ZM',
  'BA',
  'AL',
];
const LOCAL: Record<string, string> = {
  AT: 'de',
  CH: 'de',
  DE: 'de',
  FR: 'fr',
  BE: 'fr',
  LU: 'fr',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CL: 'es',
  IT: 'it',
  NL: 'nl',
  PT: 'pt',
  BR: 'pt',
  GR: 'el',
  UA: 'uk',
  PL: 'pl',
  CZ: 'cs',
  SE: 'sv',
  NO: 'nb',
  FI: 'fi',
  DK: 'da',
  HU: 'hu',
  TR: 'tr',
  JP: 'ja',
  IS: 'is',
  HR: 'hr',
  RO: 'ro',
};
const TYPES: Record<string, string[]> = {
  en: ['University of', 'Institute of Technology', 'College of', 'School of Medicine', 'Academy of Arts'],
  de: ['Universität', 'Technische Hochschule', 'Fachhochschule', 'Pädagogische Hochschule'],
  fr: ['Université de', 'École normale supérieure de', 'Institut national de', 'Conservatoire de'],
  es: ['Universidad de', 'Instituto Tecnológico de', 'Escuela Politécnica de'],
  it: ['Università degli Studi di', 'Politecnico di', 'Scuola Superiore di'],
  nl: ['Universiteit van', 'Hogeschool', 'Technische Universiteit'],
  pt: ['Universidade de', 'Instituto Politécnico de'],
  el: ['Πανεπιστήμιο', 'Πολυτεχνείο'],
  uk: ['Університет', 'Політехнічний інститут'],
  pl: ['Uniwersytet', 'Politechnika', 'Akademia'],
  cs: ['Univerzita', 'Vysoké učení technické'],
  sv: ['Universitet', 'Högskolan i'],
  nb: ['Universitetet i', 'Høgskolen i'],
  fi: ['Yliopisto', 'Ammattikorkeakoulu'],
  da: ['Universitet', 'Handelshøjskole'],
  hu: ['Egyetem', 'Műszaki Egyetem'],
  tr: ['Üniversitesi', 'Teknik Üniversitesi'],
  ja: ['大学', '工業大学'],
  is: ['Háskóli', 'Háskólinn í'],
  hr: ['Sveučilište u', 'Veleučilište'],
  ro: ['Universitatea din', 'Academia de Studii'],
};
const SYLLABLES = [
  'del',
  'ft',
  'ams',
  'ter',
  'dam',
  'zü',
  'rich',
  'ber',
  'lin',
  'pra',
  'ha',
  'kra',
  'ków',
  'sev',
  'il',
  'la',
  'gö',
  'teb',
  'org',
  'ath',
  'ens',
  'lyo',
  'n',
  'bo',
  'lo',
  'gna',
  'cór',
  'do',
  'ba',
  'ky',
  'iv',
  'ro',
  'ma',
  'tar',
  'tu',
  'ós',
  'lo',
  'a',
  'ar',
  'hus',
  'ei',
  'nd',
  'ho',
  'ven',
  'ná',
  'ça',
];

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}

function place(r: () => number): string {
  const n = 3 + Math.floor(r() * 3);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(r, SYLLABLES);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function nameIn(lang: string, city: string, r: () => number): string {
  const type = pick(r, TYPES[lang] ?? TYPES.en!);
  return lang === 'tr' ||
    lang === 'ja' ||
    type.endsWith(' of') ||
    type.endsWith(' de') ||
    type.endsWith(' di') ||
    type.endsWith(' i') ||
    type.endsWith(' u') ||
    type.endsWith(' in') ||
    type.endsWith(' í') ||
    type.endsWith(' van') ||
    type.endsWith(' din')
    ? lang === 'tr' || lang === 'ja'
      ? `${city} ${type}`
      : `${type} ${city}`
    : `${city} ${type}`;
}

export type Names = Record<string, string>;
export type CombinedFeed = Record<string, Record<string, Names>>;

/** A combined feed `{ country: { entityID: { lang: name } } }` of `count` institutions over `countries` countries. */
export function syntheticCombinedFeed(count: number, countries = 81, seed = 42): CombinedFeed {
  const r = rng(seed);
  const feed: CombinedFeed = {};
  const ccs = COUNTRIES.slice(0, countries);
  for (const cc of ccs) feed[cc] = {};
  for (let i = 0; i < count; i++) {
    const cc = ccs[i % ccs.length]!;
    const city = r() < 0.5 ? `${place(r)} ${place(r)}` : place(r);
    const host = `${city
      .normalize('NFKD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase()}${i}.${cc.toLowerCase()}`;
    const kind = r();
    const entityId =
      kind < 0.15
        ? `urn:mace:terena.org:${cc.toLowerCase()}:${host}:idp`
        : kind < 0.45
          ? `https://login.${host}.ac/simplesaml/saml2/idp/metadata.php`
          : `https://idp.${host}.edu/idp/shibboleth/${cc.toLowerCase()}`;
    const names: Names = { en: nameIn('en', city, r) };
    const local = LOCAL[cc];
    if (local && r() < 0.8) names[local] = nameIn(local, city, r);
    if (r() < 0.25) names.fr = nameIn('fr', city, r);
    if (r() < 0.3) names.es = nameIn('es', city, r);
    feed[cc]![entityId] = names;
  }
  return feed;
}

/** The per-country feeds of a combined feed. */
export function splitByCountry(feed: CombinedFeed): Map<string, Record<string, Names>> {
  return new Map(Object.entries(feed));
}

/**
 * The feeds in the layout the service publishes, generated (never the service's data): one file per
 * country or region named `<cc>.json` (lower-case ISO codes, plus the regions `africa`, `net`,
 * `org`), each `{ entityID: { lang: name } }`; a flat `display_names.json` (`{ entityID: englishName }`)
 * and a combined `display_names_country.json` (`{ cc: { entityID: { lang: name } } }`, regions
 * included), and an opt-in file that repeats entries of its country file. Every oddity seen in the
 * real files is planted, and named in `edge` so tests can find it.
 */
export interface ServiceLayout {
  /** `<name>.json` documents by file name without `.json`: `nl`, `de`, …, `africa`, `net`, `org`. */
  readonly files: ReadonlyMap<string, Record<string, Names>>;
  /** `display_names.json`. */
  readonly displayNames: Record<string, string>;
  /** `display_names_country.json`. */
  readonly displayNamesCountry: Record<string, Record<string, Names>>;
  /** The opt-in file of `optIn.country` (a lower-case code): some of its country file's entries again, and one more. */
  readonly optIn: { readonly country: string; readonly feed: Record<string, Names> };
  readonly edge: {
    /** `urn:mace:incommon:…`, in `us.json`. */
    readonly urn: string;
    /** An entityID with `?` in it, in `nl.json`. */
    readonly query: string;
    /** An entityID with an upper-case host, in `nl.json`. */
    readonly upperHost: string;
    /** Names tagged `pt-br` (in `br.json`) and `en-ZA` (in `za.json`). */
    readonly ptBr: string;
    readonly enZa: string;
    /** An entityID whose only "name" is the entityID itself, in `de.json`. */
    readonly nameless: string;
    /** In `africa.json` (a region: no country). */
    readonly african: string;
    /** In `nl.json` and repeated, with one more language, by the opt-in file. */
    readonly optedIn: string;
    /** Only in the opt-in file. */
    readonly optInOnly: string;
  };
}

/** Generate the service's layout around a combined synthetic feed of `count` institutions. */
export function syntheticServiceLayout(count = 300, seed = 7): ServiceLayout {
  const base = syntheticCombinedFeed(count, 12, seed);
  const files = new Map<string, Record<string, Names>>();
  for (const [cc, entries] of Object.entries(base)) files.set(cc.toLowerCase(), { ...entries });
  const file = (name: string) => {
    let f = files.get(name);
    if (!f) {
      f = {};
      files.set(name, f);
    }
    return f;
  };
  const edge = {
    urn: 'urn:mace:incommon:synthetic-state.example.edu',
    query: 'https://sso.synthetic-hogeschool.example.nl/saml2/idp/metadata.php?idp=main&lang=nl',
    upperHost: 'https://IDP.Synthetic-Academie.EXAMPLE.NL/idp/shibboleth',
    ptBr: 'https://login.synthetic-federal.example.br/idp/shibboleth',
    enZa: 'https://idp.synthetic-kaap.example.za/idp/shibboleth',
    nameless: 'https://idp.synthetic-nameless.example.de/idp/shibboleth',
    african: 'https://idp.synthetic-savanna.example.ke/idp/shibboleth',
    optedIn: 'https://idp.synthetic-polder.example.nl/idp/shibboleth',
    optInOnly: 'https://idp.synthetic-dijk.example.nl/idp/shibboleth',
  } as const;
  file('us')[edge.urn] = { en: 'Synthetic State University' };
  file('nl')[edge.query] = { en: 'Synthetic University of Applied Sciences', nl: 'Synthetische Hogeschool' };
  file('nl')[edge.upperHost] = { en: 'Synthetic Academy of Arts', nl: 'Synthetische Academie' };
  file('nl')[edge.optedIn] = { en: 'Polder University' };
  file('br')[edge.ptBr] = { 'pt-br': 'Universidade Federal Sintética', en: 'Synthetic Federal University' };
  file('za')[edge.enZa] = { 'en-ZA': 'University of the Synthetic Cape' };
  file('de')[edge.nameless] = { en: edge.nameless };
  file('africa')[edge.african] = { en: 'Savanna University', sw: 'Chuo Kikuu cha Savanna' };
  file('africa')['https://idp.synthetic-nile.example.eg/idp/shibboleth'] = {
    en: 'Nile Institute of Science',
  };
  file('net')['https://idp.synthetic-research.example.net/idp/shibboleth'] = {
    en: 'Synthetic Research Network',
  };
  file('org')['https://idp.synthetic-library.example.org/idp/shibboleth'] = {
    en: 'Synthetic Library Consortium',
  };
  const optIn = {
    country: 'nl',
    feed: {
      [edge.optedIn]: { en: 'Polder University', nl: 'Polderuniversiteit' },
      [edge.query]: { en: 'Synthetic University of Applied Sciences' },
      [edge.optInOnly]: { en: 'Dike Institute', nl: 'Dijkinstituut' },
    },
  };
  const displayNames: Record<string, string> = {};
  const displayNamesCountry: Record<string, Record<string, Names>> = {};
  for (const [name, entries] of files) {
    displayNamesCountry[name] = entries;
    for (const [id, names] of Object.entries(entries)) {
      displayNames[id] = names.en ?? Object.values(names)[0] ?? id;
    }
  }
  return { files, displayNames, displayNamesCountry, optIn, edge };
}
