/**
 * A relevance test set: a feed in the service's real layout (one `{ entityID: { lang: name } }` file
 * per country or region, written here, not copied from the service) with institutions and the
 * look-alikes that make ranking hard (libraries, hospitals and foundations named after the same
 * city), and queries a shopper types with the institution they mean. Used by
 * test/hints/search-relevance.test.ts (a floor on the scores) and bench/hints.bench.ts (the scores).
 */
import type { HintEntry, HintSearchOptions } from '../../src/hints.js';
import { parseHintFeed } from '../../src/hints.js';
import { syntheticCombinedFeed } from './synthetic-feed.js';

type Names = Record<string, string>;
export type CountryFile = Record<string, Names>;

interface Institution {
  id: string;
  cc: string;
  names: Names;
  /** Queries whose first result must be this institution (besides the generated ones). */
  queries?: (string | [string, HintSearchOptions])[];
  /** The local word a shopper types (generated queries: prefix, typo, accent-free). */
  city?: string;
  /** An e-mail domain of its members. */
  mail?: string;
}

const I: Institution[] = [
  {
    id: 'https://signon.rug.nl/nidp/saml2/metadata',
    cc: 'nl',
    names: { en: 'University of Groningen', nl: 'Rijksuniversiteit Groningen' },
    queries: ['groningen', 'rug', 'rijksuniversiteit', 'univ groningen', 'University of Groningen'],
    city: 'groningen',
    mail: 'student.rug.nl',
  },
  {
    id: 'https://idp.biblionet-groningen.nl/saml',
    cc: 'nl',
    names: { nl: 'Biblionet Groningen' },
    queries: ['biblionet'],
  },
  {
    id: 'https://sso.forum-groningen.nl/idp',
    cc: 'nl',
    names: { nl: 'Forum Groningen' },
    queries: ['forum gron'],
  },
  {
    id: 'https://login.uva.nl/saml2/idp/metadata.php',
    cc: 'nl',
    names: { en: 'University of Amsterdam', nl: 'Universiteit van Amsterdam' },
    queries: ['UvA', 'uva', 'universiteit van amsterdam', 'univ amsterdam'],
    mail: 'uva.nl',
  },
  {
    id: 'urn:mace:terena.org:nl:vu.nl',
    cc: 'nl',
    names: { en: 'Vrije Universiteit Amsterdam', nl: 'Vrije Universiteit Amsterdam' },
    queries: ['vrije', 'vu amsterdam', 'Vrije Universiteit'],
  },
  {
    id: 'https://idp.hva.nl/idp/shibboleth',
    cc: 'nl',
    names: { en: 'Amsterdam University of Applied Sciences', nl: 'Hogeschool van Amsterdam' },
    queries: ['hogeschool van amsterdam', 'HvA', 'applied sciences amsterdam'],
  },
  {
    id: 'https://aai.OBA-Amsterdam.NL/idp',
    cc: 'nl',
    names: { nl: 'Openbare Bibliotheek Amsterdam' },
    queries: ['openbare bib', 'bibliotheek'],
  },
  {
    id: 'https://login.kth.se/idp/shibboleth',
    cc: 'se',
    names: { en: 'KTH Royal Institute of Technology', sv: 'Kungliga Tekniska högskolan' },
    queries: ['KTH', 'kungliga', 'tekniska hogskolan', 'royal institute of technology'],
    mail: 'kth.se',
  },
  {
    id: 'https://idp.lu.se/saml?entity=main',
    cc: 'se',
    names: { en: 'Lund University', sv: 'Lunds universitet' },
    queries: ['lund', 'lunds univ'],
    city: 'lund',
    mail: 'student.lu.se',
  },
  {
    id: 'https://idp.uzh.ch/idp/shibboleth',
    cc: 'ch',
    names: { de: 'Universität Zürich', en: 'University of Zurich', fr: 'Université de Zurich' },
    queries: ['universitat zurich', 'UZH', 'uni zürich', 'UNIVERSITÄT ZÜRICH'],
    mail: 'uzh.ch',
  },
  {
    id: 'https://aai-logon.ethz.ch/idp/shibboleth',
    cc: 'ch',
    names: {
      de: 'ETH Zürich',
      en: 'ETH Zurich',
      fr: 'EPF Zurich',
    },
    queries: ['eth', 'eth zurich', 'epf'],
    mail: 'student.ethz.ch',
  },
  {
    id: 'https://idp.zhaw.ch/idp/shibboleth',
    cc: 'ch',
    names: {
      de: 'Zürcher Hochschule für Angewandte Wissenschaften',
      en: 'Zurich University of Applied Sciences',
    },
    queries: ['zhaw', 'zurcher hochschule', 'angewandte'],
  },
  {
    id: 'https://shibboleth.unige.ch/idp/shibboleth',
    cc: 'ch',
    names: { fr: 'Université de Genève', en: 'University of Geneva' },
    queries: ['universite de geneve', 'genève', 'geneve', 'unige'],
    city: 'geneve',
  },
  {
    id: 'https://idp.hug-ge.ch/idp',
    cc: 'ch',
    names: { fr: 'Hôpitaux universitaires de Genève' },
    queries: ['hopitaux'],
  },
  {
    id: 'https://idp.uni-muenchen.de/idp/shibboleth',
    cc: 'de',
    names: { de: 'Ludwig-Maximilians-Universität München', en: 'LMU Munich' },
    queries: ['ludwig maximilians', 'lmu', 'munchen uni', 'LMU München'],
  },
  {
    id: 'https://tumidp.lrz.de/idp/shibboleth',
    cc: 'de',
    names: { de: 'Technische Universität München', en: 'Technical University of Munich' },
    queries: ['TUM', 'technische universitat munchen', 'technical university munich'],
  },
  {
    id: 'https://idp.stadtbibliothek-muenchen.de/idp',
    cc: 'de',
    names: { de: 'Münchner Stadtbibliothek' },
    queries: ['stadtbibliothek'],
  },
  {
    id: 'https://idp.hu-berlin.de/idp/shibboleth',
    cc: 'de',
    names: { de: 'Humboldt-Universität zu Berlin', en: 'Humboldt University of Berlin' },
    queries: ['humboldt', 'HU Berlin', 'humbolt'],
    mail: 'hu-berlin.de',
  },
  {
    id: 'https://shibboleth.fu-berlin.de/idp/shibboleth',
    cc: 'de',
    names: { de: 'Freie Universität Berlin', en: 'Free University of Berlin' },
    queries: ['freie universitat', 'FU Berlin'],
  },
  {
    id: 'https://idp.tu-dresden.de/idp/shibboleth',
    cc: 'de',
    names: { de: 'Technische Universität Dresden', en: 'Dresden University of Technology' },
    queries: ['dresden', 'tu dresden'],
    city: 'dresden',
  },
  {
    id: 'https://idp.univ-paris1.fr/idp/shibboleth',
    cc: 'fr',
    names: { fr: 'Université Paris 1 Panthéon-Sorbonne', en: 'Paris 1 Panthéon-Sorbonne University' },
    queries: ['pantheon sorbonne', 'paris 1', 'sorbone'],
  },
  {
    id: 'https://idp.ens.psl.eu/idp/shibboleth',
    cc: 'fr',
    names: { fr: 'École normale supérieure', en: 'École normale supérieure - PSL' },
    queries: ['ENS', 'ecole normale superieure'],
  },
  {
    id: 'https://idp.polytechnique.fr/idp',
    cc: 'fr',
    names: { fr: 'École polytechnique', en: 'École polytechnique' },
    queries: ['polytechnique', 'ecole poly'],
  },
  {
    id: 'https://idp.uco.es/idp/shibboleth',
    cc: 'es',
    names: { es: 'Universidad de Córdoba', en: 'University of Cordoba' },
    queries: [['cordoba', { country: 'ES' }], 'universidad de cordoba', ['UCO', { country: 'ES' }]],
  },
  {
    id: 'https://idp.unc.edu.ar/idp/shibboleth',
    cc: 'ar',
    names: { es: 'Universidad Nacional de Córdoba', en: 'National University of Córdoba' },
    queries: [['cordoba', { country: 'AR' }], 'universidad nacional de cordoba', ['UNC', { country: 'AR' }]],
  },
  {
    id: 'https://login.ufrj.br/idp/shibboleth',
    cc: 'br',
    names: { 'pt-br': 'Universidade Federal do Rio de Janeiro', en: 'Federal University of Rio de Janeiro' },
    queries: ['ufrj', 'federal do rio', ['rio de janeiro', { lang: 'pt-BR' }]],
  },
  {
    id: 'https://idp.usp.br/idp/shibboleth',
    cc: 'br',
    names: { 'pt-br': 'Universidade de São Paulo', en: 'University of São Paulo' },
    queries: ['sao paulo', 'usp', 'universidade de sao paulo'],
    city: 'paulo',
  },
  {
    id: 'https://idp.uct.ac.za/idp/shibboleth',
    cc: 'za',
    names: {
      'en-za': 'University of Cape Town',
      en: 'University of Cape Town',
      af: 'Universiteit van Kaapstad',
    },
    queries: ['cape town', 'UCT', 'kaapstad'],
    mail: 'uct.ac.za',
  },
  {
    id: 'https://idp.wits.ac.za/idp',
    cc: 'za',
    names: { 'en-za': 'University of the Witwatersrand' },
    queries: ['wits', 'witwatersrand', 'witwaterstand'],
    mail: 'students.wits.ac.za',
  },
  {
    id: 'https://login.ox.ac.uk/idp/shibboleth',
    cc: 'gb',
    names: { en: 'University of Oxford' },
    queries: ['oxford', 'oxf', 'univ of oxford'],
    city: 'oxford',
    mail: 'ox.ac.uk',
  },
  {
    id: 'https://idp.bodleian.ox.ac.uk/idp',
    cc: 'gb',
    names: { en: 'Bodleian Libraries Oxford' },
    queries: ['bodleian'],
  },
  {
    id: 'https://shib.raven.cam.ac.uk/shibboleth',
    cc: 'gb',
    names: { en: 'University of Cambridge' },
    queries: ['cambridge', 'univeristy of cambridge'],
    city: 'cambridge',
    mail: 'cam.ac.uk',
  },
  {
    id: 'urn:mace:incommon:mit.edu',
    cc: 'us',
    names: { en: 'Massachusetts Institute of Technology' },
    queries: ['MIT', 'massachusetts', 'massachusets institute'],
    mail: 'mit.edu',
  },
  {
    id: 'urn:mace:incommon:ucla.edu',
    cc: 'us',
    names: { en: 'University of California, Los Angeles' },
    queries: ['ucla', 'los angeles', 'california los angeles'],
    mail: 'g.ucla.edu',
  },
  {
    id: 'urn:mace:incommon:berkeley.edu',
    cc: 'us',
    names: { en: 'University of California, Berkeley' },
    queries: ['berkeley', 'berkley', 'uc berkeley'],
    mail: 'berkeley.edu',
  },
  {
    id: 'https://idp.uw.edu.pl/idp/shibboleth',
    cc: 'pl',
    names: { pl: 'Uniwersytet Warszawski', en: 'University of Warsaw' },
    queries: ['uniwersytet warszawski', 'warsaw', 'warszawa'],
  },
  {
    id: 'https://idp.p.lodz.pl/idp/shibboleth',
    cc: 'pl',
    names: { pl: 'Politechnika Łódzka', en: 'Lodz University of Technology' },
    queries: ['lodz', 'łódź', 'politechnika lodzka', 'polytechnika lodzka'],
  },
  {
    id: 'https://idp.uoa.gr/idp/shibboleth',
    cc: 'gr',
    names: {
      el: 'Εθνικό και Καποδιστριακό Πανεπιστήμιο Αθηνών',
      en: 'National and Kapodistrian University of Athens',
    },
    queries: ['πανεπιστημιο αθηνων', 'kapodistrian', 'athens', 'Καποδιστριακό'],
  },
  {
    id: 'https://idp.knu.ua/idp/shibboleth',
    cc: 'ua',
    names: {
      uk: 'Київський національний університет імені Тараса Шевченка',
      en: 'Taras Shevchenko National University of Kyiv',
    },
    queries: ['шевченка', 'shevchenko', 'kyiv'],
  },
  {
    id: 'https://idp.hi.is/idp/shibboleth',
    cc: 'is',
    names: { is: 'Háskóli Íslands', en: 'University of Iceland' },
    queries: ['haskoli islands', 'iceland', 'háskóli íslands'],
  },
  {
    id: 'https://idp.ku.dk/idp/shibboleth',
    cc: 'dk',
    names: { da: 'Københavns Universitet', en: 'University of Copenhagen' },
    queries: ['kobenhavns', 'copenhagen', 'københavn'],
  },
  {
    id: 'https://idp.ntnu.no/idp/shibboleth',
    cc: 'no',
    names: {
      nb: 'Norges teknisk-naturvitenskapelige universitet',
      en: 'Norwegian University of Science and Technology',
    },
    queries: ['ntnu', 'norges teknisk', 'norwegian university of science'],
  },
  {
    id: 'https://idp.hioa.no/idp',
    cc: 'no',
    names: { nb: 'Høgskolen i Østfold', en: 'Østfold University College' },
    queries: ['ostfold', 'hogskolen i ostfold'],
  },
  {
    id: 'https://idp.itu.edu.tr/idp/shibboleth',
    cc: 'tr',
    names: { tr: 'İstanbul Teknik Üniversitesi', en: 'Istanbul Technical University' },
    queries: ['istanbul teknik', 'İTÜ', 'istanbul technical'],
  },
  {
    id: 'https://idp.u-tokyo.ac.jp/idp/shibboleth',
    cc: 'jp',
    names: { ja: '東京大学', en: 'The University of Tokyo' },
    queries: ['東京大学', 'tokyo', 'university of tokyo'],
  },
  {
    id: 'https://idp.cuni.cz/idp/shibboleth',
    cc: 'cz',
    names: { cs: 'Univerzita Karlova', en: 'Charles University' },
    queries: ['karlova', 'charles', 'univerzita karlova'],
  },
  {
    id: 'https://idp.elte.hu/idp/shibboleth',
    cc: 'hu',
    names: { hu: 'Eötvös Loránd Tudományegyetem', en: 'Eötvös Loránd University' },
    queries: ['eotvos', 'ELTE', 'lorand'],
  },
  {
    id: 'https://idp.unizg.hr/idp',
    cc: 'hr',
    names: { hr: 'Sveučilište u Zagrebu', en: 'University of Zagreb' },
    queries: ['sveuciliste u zagrebu', 'zagreb', 'zagrebu'],
  },
  {
    id: 'https://IDP.UNIBO.IT/idp/shibboleth',
    cc: 'it',
    names: { it: 'Alma Mater Studiorum - Università di Bologna', en: 'University of Bologna' },
    queries: ['bologna', 'alma mater', 'unibo'],
    mail: 'studio.unibo.it',
  },
  {
    id: 'https://idp.polimi.it/idp/shibboleth',
    cc: 'it',
    names: { it: 'Politecnico di Milano', en: 'Polytechnic University of Milan' },
    queries: ['politecnico di milano', 'polimi', 'milano'],
  },
  {
    id: 'https://idp.rnp.br/helpdesk',
    cc: 'br',
    names: { 'pt-br': 'https://idp.rnp.br/helpdesk' },
    queries: [],
  },
];

/** Look-alikes: same cities, not what a student looks for. Generated, several per city. */
const DISTRACTOR_KINDS = [
  ['Stadtarchiv', 'de'],
  ['Public Library', 'en'],
  ['Museum', 'en'],
  ['Hospital Foundation', 'en'],
  ['Bibliothèque municipale de', 'fr'],
  ['Gemeentearchief', 'nl'],
] as const;
const DISTRACTOR_CITIES = [
  'Groningen',
  'Amsterdam',
  'Zürich',
  'Genève',
  'München',
  'Berlin',
  'Oxford',
  'Cambridge',
  'Córdoba',
  'Bologna',
  'Dresden',
  'Lund',
];

/** The feed: one file per country plus a region file `org` and an opt-in file repeating entries of `nl`. */
export function relevanceFeed(): Map<string, CountryFile> {
  const files = new Map<string, CountryFile>();
  const add = (cc: string, id: string, names: Names) => {
    if (!files.has(cc)) files.set(cc, {});
    files.get(cc)![id] = names;
  };
  for (const inst of I) add(inst.cc, inst.id, inst.names);
  let k = 0;
  for (const city of DISTRACTOR_CITIES) {
    for (const [kind, lang] of DISTRACTOR_KINDS) {
      const name = kind.endsWith(' de') || kind === 'Gemeentearchief' ? `${kind} ${city}` : `${city} ${kind}`;
      add(
        'org',
        `https://idp${k++}.civic-${city
          .normalize('NFKD')
          .replace(/[^A-Za-z]/g, '')
          .toLowerCase()}.org/idp`,
        {
          [lang]: name,
        },
      );
    }
  }
  // An opt-in file that repeats two entries of its country file (the service publishes such files).
  const nl = files.get('nl')!;
  files.set('nl-optin', Object.fromEntries(Object.entries(nl).slice(0, 2)));
  return files;
}

export interface RelevanceCase {
  query: string;
  options: HintSearchOptions;
  expected: string;
}

/** One letter changed in the middle of a word (a typo a person makes). */
function typo(word: string): string {
  const i = Math.floor(word.length / 2);
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

/** The relevance cases: each institution's own queries plus generated ones. */
export function relevanceCases(): RelevanceCase[] {
  const out: RelevanceCase[] = [];
  for (const inst of I) {
    for (const q of inst.queries ?? []) {
      const [query, options] = typeof q === 'string' ? [q, {}] : q;
      out.push({ query, options, expected: inst.id });
    }
    const english = inst.names.en ?? Object.values(inst.names)[0]!;
    if (english !== inst.id) out.push({ query: english, options: {}, expected: inst.id });
    if (inst.mail) out.push({ query: `jan.de.vries@${inst.mail}`, options: {}, expected: inst.id });
    if (inst.city && inst.city.length >= 6)
      out.push({ query: typo(inst.city), options: {}, expected: inst.id });
    const local = Object.entries(inst.names).find(([lang]) => lang !== 'en');
    if (local && local[1] !== english)
      out.push({ query: local[1], options: { lang: local[0] }, expected: inst.id });
  }
  return out;
}

export interface RelevanceScore {
  cases: number;
  top1: number;
  top3: number;
  misses: { query: string; expected: string; got: string[] }[];
}

/** Runs every case through `search` and scores it. */
export function scoreRelevance(
  search: (query: string, options: HintSearchOptions) => { entityId: string }[],
): RelevanceScore {
  const cases = relevanceCases();
  let top1 = 0;
  let top3 = 0;
  const misses: RelevanceScore['misses'] = [];
  for (const c of cases) {
    const got = search(c.query, { ...c.options, limit: 10 }).map((r) => r.entityId);
    if (got[0] === c.expected) top1++;
    if (got.slice(0, 3).includes(c.expected)) top3++;
    else misses.push({ query: c.query, expected: c.expected, got: got.slice(0, 3) });
  }
  return { cases: cases.length, top1: top1 / cases.length, top3: top3 / cases.length, misses };
}

/** The relevance feed's files, each parsed as the feed does, plus 6,500 generated institutions around them. */
export function relevanceEntries(): HintEntry[] {
  const byId = new Map<string, HintEntry>();
  for (const [file, doc] of relevanceFeed()) {
    const cc = /^[a-z]{2}$/.test(file) ? file : file.startsWith('nl') ? 'nl' : undefined;
    for (const entry of parseHintFeed(doc, cc ? { country: cc } : {}).entries.values()) {
      if (!byId.has(entry.entityId)) byId.set(entry.entityId, entry);
    }
  }
  for (const entry of parseHintFeed(syntheticCombinedFeed(6_500, 81)).entries.values())
    byId.set(entry.entityId, entry);
  return [...byId.values()];
}
