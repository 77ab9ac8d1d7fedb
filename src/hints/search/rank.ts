/**
 * Ranking: a result is ordered by its class, then by its static rank (see {@link TopK}). The class orders, from strongest: a recent choice of the shopper, then the match
 * kind (exact, prefix, word, acronym, host, substring, typo), then the shopper's country, then the
 * shopper's language. Boosts only order results within what the query matched: they never hide one.
 * The static rank (the index's entity order) breaks ties: institutions of higher education first,
 * then those named in several languages, then alphabetical.
 */
import type { HintMatchKind } from '../types.js';

export const TIER = {
  exact: 0,
  prefix: 1,
  word: 2,
  acronym: 3,
  host: 4,
  substring: 5,
  typo: 6,
} as const satisfies Record<HintMatchKind, number>;
export type Tier = (typeof TIER)[HintMatchKind];
export const KINDS: readonly HintMatchKind[] = [
  'exact',
  'prefix',
  'word',
  'acronym',
  'host',
  'substring',
  'typo',
];

/**
 * The class of a candidate, one integer, most significant first:
 *
 * 1. a recent choice of the shopper;
 * 2. the match group: exact name; names with words the query starts (prefix and word matches
 *    together); the entityID's host or e-mail domain and acronyms; substrings; one typo;
 * 3. the shopper's country; 4. the shopper's language;
 * 5. an institution of higher education (the shopper proves a student or staff status);
 * 6. the query's last word is a whole word of the name ("athens" in "University of Athens" before
 *    "Athensville College");
 * 7. within the group: a name that starts with the query before one with a word that does, a host
 *    label before an acronym (an institution's own domain says more than initials, which collide in
 *    a large feed).
 *
 * A query that looks like an acronym ("UvA", "KTH": two capitals or more) puts host and acronym
 * matches in the prefix group, above names with a longer word that merely starts with it.
 */
export interface RankTable {
  readonly group: Int32Array;
  readonly sub: Int32Array;
}

/** The two tables, made once. */
const TABLES = [makeRankTable(false), makeRankTable(true)] as const;

export function rankTable(acronymFirst: boolean): RankTable {
  return TABLES[acronymFirst ? 1 : 0];
}

function makeRankTable(acronymFirst: boolean): RankTable {
  const group = new Int32Array(KINDS.length);
  const sub = new Int32Array(KINDS.length);
  const set = (tier: number, g: number, s: number) => {
    group[tier] = g;
    sub[tier] = s;
  };
  set(TIER.exact, 7, 3);
  set(TIER.substring, 3, 0);
  set(TIER.typo, 2, 0);
  if (acronymFirst) {
    // "KTH": the word itself ("KTH Royal Institute…", whole-word bit), then a host label, then the
    // initials, then longer words that merely start with it ("Kthxyz").
    set(TIER.host, 6, 3);
    set(TIER.acronym, 6, 2);
    set(TIER.prefix, 6, 1);
    set(TIER.word, 6, 0);
  } else {
    set(TIER.prefix, 6, 1);
    set(TIER.word, 6, 0);
    set(TIER.host, 5, 1);
    set(TIER.acronym, 5, 0);
  }
  return { group, sub };
}

/** What raises a class above its match kind's; one bit each, below the group (× 256). */
export const BOOST = { recent: 4096, country: 128, lang: 64, academic: 32 } as const;

/** The class of a match of kind `tier` (a whole last word ranks above a prefix of it), before boosts. */
export function matchClass(table: RankTable, tier: number, whole: boolean): number {
  return table.group[tier]! * 256 + table.sub[tier]! + (whole ? 4 : 0);
}

export function classOf(
  table: RankTable,
  tier: number,
  recent: boolean,
  country: boolean,
  lang: boolean,
  academic: boolean,
  whole: boolean,
): number {
  return (
    matchClass(table, tier, whole) +
    (recent ? BOOST.recent : 0) +
    (country ? BOOST.country : 0) +
    (lang ? BOOST.lang : 0) +
    (academic ? BOOST.academic : 0)
  );
}

/**
 * The best `limit` candidates seen: by class, then by static rank (lower first). Each entity keeps only
 * its best class (an institution is listed once, with its best match). Most candidates are rejected
 * by one comparison with the weakest one held, so a scan over thousands of postings stays cheap.
 *
 * Class and rank are two small integers compared in turn, never one floating-point key: a double
 * that crosses a call is a heap allocation, and a one-letter query with a country boost compares
 * thousands of candidates (search p99: young-generation collections).
 */
export class TopK {
  readonly classes: Int32Array;
  readonly entities: Int32Array;
  readonly tiers: Uint8Array;
  size = 0;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
    this.classes = new Int32Array(limit);
    this.entities = new Int32Array(limit);
    this.tiers = new Uint8Array(limit);
  }

  get full(): boolean {
    return this.size >= this.#limit;
  }

  /** Whether a candidate of class `cls` at static rank `entity` would enter the results now. */
  beats(cls: number, entity: number): boolean {
    if (this.size < this.#limit) return true;
    const last = this.#limit - 1;
    const floor = this.classes[last]!;
    return cls > floor || (cls === floor && entity < this.entities[last]!);
  }

  offer(entity: number, cls: number, tier: number): void {
    if (!this.beats(cls, entity)) return;
    const limit = this.#limit;
    // Already held (with the same rank, a better class means a better candidate): keep the better.
    let at = -1;
    for (let i = 0; i < this.size; i++) {
      if (this.entities[i] === entity) {
        at = i;
        break;
      }
    }
    if (at >= 0) {
      if (this.classes[at]! >= cls) return;
      // Remove it, then insert as new.
      for (let i = at; i < this.size - 1; i++) {
        this.classes[i] = this.classes[i + 1]!;
        this.entities[i] = this.entities[i + 1]!;
        this.tiers[i] = this.tiers[i + 1]!;
      }
      this.size--;
    }
    let i = this.size < limit ? this.size++ : limit - 1;
    while (
      i > 0 &&
      (this.classes[i - 1]! < cls || (this.classes[i - 1] === cls && this.entities[i - 1]! > entity))
    ) {
      this.classes[i] = this.classes[i - 1]!;
      this.entities[i] = this.entities[i - 1]!;
      this.tiers[i] = this.tiers[i - 1]!;
      i--;
    }
    this.classes[i] = cls;
    this.entities[i] = entity;
    this.tiers[i] = tier;
  }
}

/** Academic word stems (folded, first four letters): a shopper proving a student status looks for these. */
const ACADEMIC = new Set(
  'univ hask hoch hoge coll poly poli akad acad ylio egye inst ecol escu esco scuo hogs hoys tech sveu vele ammo fach unib unic facu liceo'.split(
    ' ',
  ),
);

/** Whether a folded word marks an institution of higher education (the static-rank prior). */
export function academicWord(token: string): boolean {
  return token.length >= 4 && ACADEMIC.has(token.slice(0, 4));
}

/** Words left out of the short form of an acronym ("Massachusetts Institute of Technology" → "mit"). */
export const ACRONYM_STOP = new Set(
  'of the for and de del della degli di da das do dos du des la le les van der den voor und fur für zu am an et e y i u w na v z in im'.split(
    ' ',
  ),
);
