/**
 * Ranking: a result is ordered by its class, then by its static rank (see {@link TopK}). Boosts only
 * order results within what the query matched: they never hide one.
 */
import type { HintMatchKind } from '../types.js';

// biome-ignore format: one kind per column reads better than seven lines
export const TIER = { exact: 0, prefix: 1, word: 2, acronym: 3, host: 4, substring: 5, typo: 6 } as const satisfies Record<HintMatchKind, number>;
export const KINDS = Object.keys(TIER) as HintMatchKind[];

/**
 * The class of a candidate, one integer, most significant first:
 *
 * 1. a recent choice of the shopper;
 * 2. the match group: exact name; names with words the query starts (prefix and word matches
 *    together); words found across the names of one institution in several languages, the
 *    entityID's host or e-mail domain and acronyms; substrings; one typo;
 * 3. the shopper's country; 4. the shopper's language;
 * 5. an institution of higher education (the shopper proves a student or staff status);
 * 6. the query's last word is a whole word of the name ("athens" in "University of Athens" before
 *    "Athensville College");
 * 7. within the group: a name that starts with the query before one with a word that does, a host
 *    label before an acronym (an institution's own domain says more than initials, which collide in
 *    a large list).
 *
 * A query that looks like an acronym ("UvA", "KTH": two capitals or more) puts host and acronym
 * matches in the prefix group, above names with a longer word that merely starts with it; a query
 * that is a domain ("uni.lu") puts the institutions under it above names with those words. Another
 * short word ("uva") puts those of the shopper's country or language at the bottom of that group, where
 * their boost ranks them above names elsewhere: the University of Amsterdam (uva.nl) above Uva Wellassa
 * University for a Dutch shopper, the other way round for a Sri Lankan one.
 */
export type RankTable = Readonly<Record<number, readonly [group: number, sub: number]>>;

const NORMAL: RankTable = {
  [TIER.exact]: [7, 3],
  [TIER.prefix]: [6, 3],
  [TIER.word]: [6, 2],
  [TIER.host]: [5, 1],
  [TIER.acronym]: [5, 0],
  [TIER.substring]: [3, 0],
  [TIER.typo]: [2, 0],
};
export const RANK_TABLES = {
  normal: NORMAL,
  // "KTH": the word itself ("KTH Royal Institute…", whole-word bit), then a host label, then the
  // initials, then longer words that merely start with it ("Kthxyz").
  acronym: { ...NORMAL, [TIER.host]: [6, 5], [TIER.acronym]: [6, 4] },
  // "uva", a host label or initials of the shopper's country or language: with the names, below them.
  short: { ...NORMAL, [TIER.host]: [6, 1], [TIER.acronym]: [6, 0] },
  domain: { ...NORMAL, [TIER.host]: [8, 0] },
} as const satisfies Record<string, RankTable>;

/** Words found across the names of one institution (its languages): just below words of one name; with initials, below words. */
const ACROSS: RankTable = { [TIER.word]: [6, 0], [TIER.acronym]: [5, 2] };

/** What raises a class above its match kind's; one bit each, below the group (× 256). */
export const BOOST = { recent: 4096, country: 128, lang: 64, academic: 32 } as const;

/** The class of a match of kind `tier` (a whole last word ranks above a prefix of it), before boosts. */
export function matchClass(table: RankTable, tier: number, whole: boolean, across = false): number {
  const [group, sub] = (across ? ACROSS : table)[tier]!;
  return group * 256 + sub + (whole ? 8 : 0);
}

/**
 * The best `limit` candidates seen: by class, then by static rank (lower first). Each institution
 * keeps only its best class (an institution is listed once, with its best match). Most candidates
 * are rejected by one comparison with the weakest one held, so a scan over thousands of postings
 * stays cheap.
 */
export class TopK {
  readonly held: { entity: number; cls: number; tier: number }[] = [];
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether a candidate of class `cls` at static rank `entity` would enter the results now. */
  beats(cls: number, entity: number): boolean {
    if (this.held.length < this.#limit) return true;
    const last = this.held[this.#limit - 1]!;
    return cls > last.cls || (cls === last.cls && entity < last.entity);
  }

  offer(entity: number, cls: number, tier: number): void {
    if (!this.beats(cls, entity)) return;
    const at = this.held.findIndex((h) => h.entity === entity);
    if (at >= 0) {
      if (this.held[at]!.cls >= cls) return;
      this.held.splice(at, 1);
    }
    const i = this.held.findIndex((h) => h.cls < cls || (h.cls === cls && h.entity > entity));
    this.held.splice(i === -1 ? this.held.length : i, 0, { entity, cls, tier });
    if (this.held.length > this.#limit) this.held.pop();
  }
}

/** Academic word stems (folded, first four letters): a shopper proving a student status looks for these. */
const ACADEMIC = new Set(
  'univ hask hoch hoge coll poly poli akad acad ylio egye inst ecol escu esco scuo hogs hoys tech sveu vele ammo fach unib unic facu'.split(
    / /,
  ),
);

/** Whether a folded word marks an institution of higher education (the static-rank prior). */
export function academicWord(word: string): boolean {
  return word.length >= 4 && ACADEMIC.has(word.slice(0, 4));
}

/** Words left out of the short form of an acronym ("Massachusetts Institute of Technology" → "mit"). */
export const ACRONYM_STOP = new Set(
  'of the for and de del della degli di da das do dos du des la le les van der den voor und fur zu am an et e y i u w na v z in im'.split(
    / /,
  ),
);
