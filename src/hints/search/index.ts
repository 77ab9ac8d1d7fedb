/**
 * The search index (built by `build.ts`), a plain inverted index: the words a query word starts are
 * one range of the sorted dictionary; each word's posting list is in static rank (higher education
 * first, then institutions named in several languages, then alphabetical), so a scan stops as soon as
 * nothing later can enter the results. Exact names, acronyms, host labels and e-mail domains are maps.
 */
import { randomBase64url } from '../../core/random.js';
import { normaliseLang } from '../parse.js';
import type { HintEntry, HintSearchOptions, HintSearchResult } from '../types.js';
import { type Built, build, drain, initialsFrom, inSlices, type Name, pickName, wordsOf } from './build.js';
import { fold } from './fold.js';
import { highlight, swapOf, typoOf } from './highlight.js';
import { queryDomain } from './host.js';
import { BOOST, KINDS, matchClass, RANK_TABLES, type RankTable, TIER, TopK } from './rank.js';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 1000;
/** Characters of a query that are used; the rest is ignored (no name is that long). */
export const MAX_QUERY_LENGTH = 256;
const MAX_WORDS = 8;
/** Most `recent` entityIDs a search takes. */
export const MAX_RECENT = 10;
/** Shortest word that a substring match or a typo match is tried for. */
const MIN_SUBSTRING = 3;
const MIN_TYPO = 5;
/** Shortest word for which two swapped neighbouring letters are tried ("wein" for "wien"); any typo would find too much. */
const MIN_SWAP = 4;
const MAX_TYPO = 32;
/** Most dictionary words a substring query looks at (a three-letter substring of a huge list). */
const MAX_SUBSTRING_WORDS = 4096;
const UPPER = '\uffff';

/** The institutions under `key` (see `Lists` in build.ts). */
function listed(map: Built['exact'], key: string): readonly number[] {
  const list = map.get(key);
  return list === undefined ? [] : typeof list === 'number' ? [list] : list;
}

/** How one institution matched: `whole`, the last word is a whole word; `across`, in different names. */
type Match = { readonly tier: number; readonly whole: boolean; readonly across: boolean };

/** `inside`: dictionary words holding the query word not at their start; `typos`: those it starts but for one typo. */
type Accepts = { readonly inside: number[]; readonly typos: number[]; readonly postings: number };

/** One query, prepared. */
interface Query {
  readonly text: string;
  readonly words: string[];
  /** The words joined by single spaces: what a name starts with when it starts with them in order. */
  readonly joined: string;
  /** Per word, it after a space: what a name's `spaced` holds where one of its words starts with it. */
  readonly starts: string[];
  /** The last word between spaces: what `spaced` holds when the last word is a whole word of it. */
  readonly whole: string;
  /** Whether the last word is a whole word of some name (the dictionary holds it). */
  readonly anyWhole: boolean;
  /** Per word: the dictionary range of the words it starts. */
  readonly ranges: [number, number][];
  readonly table: RankTable;
  /** A short word ("uva"): initials and host labels of the shopper's country or language rank with names. */
  readonly short: boolean;
  readonly country: string | undefined;
  readonly lang: Set<number> | undefined;
  readonly recent: Set<number>;
  /** Boosts whose institutions were ranked already: 1 country, 2 language (see `#boostPass`). */
  settled: number;
  accepts?: (Accepts | undefined)[];
}

export class SearchIndex {
  readonly #d: Built;

  /** Identifies this index (this version of the list): changes with every swap. */
  readonly version: string = randomBase64url(9);

  /** Builds the index in one go (see {@link SearchIndex.build} for a build that leaves the event loop free). */
  constructor(entries: Iterable<HintEntry>, built?: Built) {
    this.#d = built ?? drain(build(Array.from(entries)));
  }

  /**
   * Builds the index in slices, letting the process serve other requests meanwhile, taking what it
   * derived from an institution that did not change from `previous`.
   */
  static async build(entries: Iterable<HintEntry>, previous?: SearchIndex): Promise<SearchIndex> {
    const before = previous === undefined ? undefined : previous.#d;
    return new SearchIndex([], await inSlices(build(Array.from(entries), before)));
  }

  /** Number of institutions. */
  get size(): number {
    return this.#d.entries.length;
  }

  search(query: string, options: HintSearchOptions = {}): HintSearchResult[] {
    const d = this.#d;
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const raw = query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query;
    const text = fold(raw);
    if (!text || limit <= 0 || d.entries.length === 0) return [];
    const words = [...new Set(text.split(' '))].slice(0, MAX_WORDS);
    const lang = options.lang === undefined ? undefined : normaliseLang(options.lang);
    const recent = new Set<number>();
    for (const id of options.recent?.slice(0, MAX_RECENT) ?? []) {
      const e = d.byId.get(id);
      if (e !== undefined) recent.add(e);
    }
    const domain = queryDomain(raw);
    const trimmed = raw.trim();
    // "UvA", "KTH": a short word with two capitals or more reads as an acronym; so does a word in
    // capitals beside others ("FU Berlin": before "Hochschule für … Berlin").
    const acronym =
      words.length === 1
        ? /^\p{L}{2,8}$/u.test(trimmed) && (trimmed.match(/\p{Lu}/gu)?.length ?? 0) >= 2
        : trimmed.split(/\s+/).some((w) => /^\p{Lu}{2,4}$/u.test(w));
    const ranges = words.map((w) => this.#range(w));
    const ctx: Query = {
      text,
      words,
      joined: words.join(' '),
      starts: words.map((w) => ` ${w}`),
      whole: ` ${words.at(-1)} `,
      anyWhole: d.words[ranges.at(-1)![0]] === words.at(-1),
      ranges,
      table: RANK_TABLES[domain !== undefined ? 'domain' : acronym ? 'acronym' : 'normal'],
      short: domain === undefined && !acronym && /^\p{L}{2,8}$/u.test(trimmed),
      country: options.country?.toUpperCase(),
      lang: lang === undefined ? undefined : d.byLang.get(lang.split('-')[0]!),
      recent,
      settled: 0,
    };
    const top = new TopK(limit);

    // Recent choices first, whatever matched them.
    for (const e of recent) {
      const tier = this.#tierOf(e, ctx, domain);
      if (tier >= 0) top.offer(e, this.#key(ctx, e, tier), tier);
    }
    if (domain !== undefined) {
      for (const e of this.#domainHits(domain)) top.offer(e, this.#key(ctx, e, TIER.host), TIER.host);
      // An e-mail address says where the shopper studies or works: nothing else about it is a name.
      if (raw.includes('@')) return this.#results(top, ctx, lang, domain);
    }
    if (this.#canEnter(ctx, top, TIER.prefix)) {
      if (words.length === 1) this.#wordStage(ctx, top);
      else this.#wordsStage(ctx, top);
      // The boost passes ranked prefix and word matches only: the stages after them make room for boosts.
      ctx.settled = 0;
    }
    const word = words[0]!;
    if (words.length === 1 && this.#canEnter(ctx, top, TIER.acronym)) {
      for (const e of listed(d.acronyms, word)) top.offer(e, this.#key(ctx, e, TIER.acronym), TIER.acronym);
      for (const e of listed(d.labels, word)) top.offer(e, this.#key(ctx, e, TIER.host), TIER.host);
    }
    if (this.#canEnter(ctx, top, TIER.substring) || this.#canEnter(ctx, top, TIER.typo))
      this.#fuzzyStage(ctx, top);
    return this.#results(top, ctx, lang, domain);
  }

  #results(top: TopK, ctx: Query, lang: string | undefined, domain: string | undefined): HintSearchResult[] {
    const { words } = ctx;
    return top.held.map(({ entity: e, tier }) => {
      const match = KINDS[tier]!;
      const { entityId, names, country } = this.#d.entries[e]!;
      const name = pickName(this.#d.entries[e]!, lang) ?? entityId;
      const shown = match === 'host' ? { ranges: [], all: false } : highlight(name, words, match);
      // Matched in another name, or across names, or by the host: the name that holds it all, else the host.
      const other =
        shown.all || match === 'host'
          ? undefined
          : Object.values(names).find((n) => n !== name && highlight(n, words, match).all);
      const { host } = this.#d.derived[e]!;
      const matchedText =
        other ?? (!shown.all && (match === 'host' || domain !== undefined) ? host : undefined);
      const out = { entityId, name, country, match, ranges: other === undefined ? shown.ranges : [] };
      return matchedText === undefined ? out : { ...out, matchedText };
    });
  }

  /** The class of candidate `e` matched as `tier` (see {@link TopK}). */
  #key(ctx: Query, e: number, tier: number, whole = false, across = false): number {
    const country = ctx.country !== undefined && this.#d.entries[e]!.country === ctx.country;
    const lang = ctx.lang?.has(e) === true;
    let cls = matchClass(ctx.short && (country || lang) ? RANK_TABLES.short : ctx.table, tier, whole, across);
    if (country) cls += BOOST.country;
    if (lang) cls += BOOST.lang;
    if (this.#d.derived[e]!.prior >= 2) cls += BOOST.academic;
    if (ctx.recent.has(e)) cls += BOOST.recent;
    return cls;
  }

  /**
   * The best class any non-recent candidate of `tier` could have at static rank `e` or later:
   * institutions of higher education come first in static rank, so `academic[e]` bounds every later one.
   */
  #ceiling(ctx: Query, tier: number, e: number, whole = true, across = false): number {
    const boosted = ctx.short && (ctx.country !== undefined || ctx.lang !== undefined);
    let cls = matchClass(boosted ? RANK_TABLES.short : ctx.table, tier, whole, across);
    if (ctx.country !== undefined && (ctx.settled & 1) === 0) cls += BOOST.country;
    if (ctx.lang !== undefined && (ctx.settled & 2) === 0) cls += BOOST.lang;
    if (e === 0 || this.#d.derived[e]!.prior >= 2) cls += BOOST.academic;
    return cls;
  }

  /** Whether any candidate of `tier` could still enter the results. */
  #canEnter(ctx: Query, top: TopK, tier: number): boolean {
    return top.beats(this.#ceiling(ctx, tier, 0), 0);
  }

  /**
   * The shopper's country and language raise results, so a scan of a long posting list cannot stop
   * while some later institution might still be boosted (a one-letter query with a country would
   * read the whole list). When the country's (or language's) institutions are few next to the list,
   * they are ranked first from their own list, and the scans after it leave that boost out.
   */
  #boostPass(ctx: Query, top: TopK, postings: number): void {
    // The flags are set after both passes, so that each pass's own early stop leaves room for every boost.
    let settled = 0;
    const country = ctx.country === undefined ? undefined : this.#d.byCountry.get(ctx.country);
    if (country !== undefined && country.size * 8 <= postings) {
      this.#rankAll(ctx, top, country);
      settled |= 1;
    }
    if (ctx.lang !== undefined && ctx.lang.size * 8 <= postings) {
      this.#rankAll(ctx, top, ctx.lang);
      settled |= 2;
    }
    ctx.settled = settled;
  }

  /** Every institution of `list` (static-rank order) that the query's words match, ranked. */
  #rankAll(ctx: Query, top: TopK, list: Iterable<number>): void {
    for (const e of list) {
      // Exact names were offered before: the best any other can be is a prefix match or initials.
      const high = Math.max(
        this.#ceiling(ctx, TIER.prefix, e, ctx.anyWhole),
        this.#ceiling(ctx, TIER.acronym, e, ctx.anyWhole),
      );
      if (!top.beats(high, e)) return;
      this.#offerMatch(ctx, top, e);
    }
  }

  #offerMatch(ctx: Query, top: TopK, e: number): void {
    const m = this.#match(e, ctx);
    if (m !== undefined) top.offer(e, this.#key(ctx, e, m.tier, m.whole, m.across), m.tier);
  }

  /** Postings of the dictionary range `[lo, hi)`. */
  #count(lo: number, hi: number): number {
    return this.#d.from[hi]! - this.#d.from[lo]!;
  }

  /** One query word: names it is (exact), names it starts (prefix), names with a word it starts. */
  #wordStage(ctx: Query, top: TopK): void {
    const d = this.#d;
    const word = ctx.words[0]!;
    const [lo, hi] = ctx.ranges[0]!;
    if (lo === hi) return;
    for (const e of listed(d.exact, word)) top.offer(e, this.#key(ctx, e, TIER.exact, true), TIER.exact);
    this.#boostPass(ctx, top, this.#count(lo, hi));
    // Prefix matches first, then word matches; each list is in static rank, so a scan stops as soon
    // as nothing later in it can enter the results. The word itself (a whole word) before longer
    // words it starts.
    const whole = d.words[lo] === word;
    const scan = (tier: number, rest: boolean) => {
      const offer = (w: boolean) => (e: number) => top.offer(e, this.#key(ctx, e, tier, w), tier);
      if (whole) this.#scan(top, lo, lo + 1, rest, this.#ceiling(ctx, tier, 0, true), offer(true));
      this.#scan(top, whole ? lo + 1 : lo, hi, rest, this.#ceiling(ctx, tier, 0, false), offer(false));
    };
    scan(TIER.prefix, false);
    if (this.#canEnter(ctx, top, TIER.word)) scan(TIER.word, true);
  }

  /**
   * Offers the institutions of dictionary words `lo` to `hi` (where the word starts a name, or the
   * `rest`), each word's list in static rank until `high` (less the academic boost past the
   * institutions of higher education) says nothing later in it can enter.
   */
  #scan(top: TopK, lo: number, hi: number, rest: boolean, high: number, offer: (e: number) => void): void {
    const { ids, from, split, derived } = this.#d;
    for (let w = lo; w < hi; w++) {
      const end = rest ? from[w + 1]! : split[w]!;
      for (let k = rest ? split[w]! : from[w]!; k < end; k++) {
        const e = ids[k]!;
        if (!top.beats(derived[e]!.prior >= 2 ? high : high - BOOST.academic, e)) break;
        offer(e);
      }
    }
  }

  /**
   * Several words: every one must start a word of the same name, in any order, or (a short word)
   * be the initials of words in a row of it ("tu dresden", "uc berkeley"); failing that, words found
   * across the institution's names in several languages ("lmu munich" where "LMU" is only in the
   * German name).
   */
  #wordsStage(ctx: Query, top: TopK): void {
    const { words } = ctx;
    const sizes = ctx.ranges.map(([lo, hi]) => this.#count(lo, hi));
    // The smallest range drives; a word that may be initials ("tu", "lmu") may have no range at all.
    let first = -1;
    for (let j = 0; j < words.length; j++) {
      if (sizes[j] === 0 && !initialsWord(words[j]!)) return;
      if (sizes[j]! > 0 && (first === -1 || sizes[j]! < sizes[first]!)) first = j;
    }
    if (first === -1) return;
    // Names where the driving word is initials are not in its range: another word drives for them,
    // up to the classes of initials and of words across names. The smallest longer word, else the
    // longest, the last of equals (the place comes after the initials: "tu wien", "hr west").
    let second = -1;
    if (initialsWord(words[first]!)) {
      const short = words.every(initialsWord);
      for (let j = 0; j < words.length; j++) {
        if (j === first || sizes[j] === 0 || (!short && initialsWord(words[j]!))) continue;
        if (second === -1 || (short ? words[j]!.length >= words[second]!.length : sizes[j]! < sizes[second]!))
          second = j;
      }
    }
    const seen = new Set<number>();
    for (const e of listed(this.#d.exact, ctx.text)) {
      seen.add(e);
      top.offer(e, this.#key(ctx, e, TIER.exact, true), TIER.exact);
    }
    // Both drives scan their lists: the boosts are settled against what they scan together.
    this.#boostPass(ctx, top, sizes[first]! + (second === -1 ? 0 : sizes[second]!));
    const whole = ctx.anyWhole;
    // Only a name whose first word the first query word starts can be a prefix match.
    this.#drive(ctx, top, first, seen, (rest) =>
      this.#ceiling(ctx, first === 0 && rest ? TIER.word : TIER.prefix, 0, whole),
    );
    if (second === -1) return;
    this.#drive(ctx, top, second, seen, () =>
      Math.max(this.#ceiling(ctx, TIER.acronym, 0, whole), this.#ceiling(ctx, TIER.word, 0, whole, true)),
    );
  }

  /** Offers the institutions of word `j`'s range not `seen` yet, each list until `ceiling` says nothing later can enter. */
  #drive(ctx: Query, top: TopK, j: number, seen: Set<number>, ceiling: (rest: boolean) => number): void {
    const [lo, hi] = ctx.ranges[j]!;
    const offer = (e: number) => {
      if (seen.has(e)) return;
      seen.add(e);
      this.#offerMatch(ctx, top, e);
    };
    for (const rest of [false, true]) this.#scan(top, lo, hi, rest, ceiling(rest), offer);
  }

  /** The best of exact / prefix / word / initials for institution `e` (in one name, else across its names). */
  #match(e: number, ctx: Query): Match | undefined {
    const { words, table } = ctx;
    const n = words.length;
    let best: Match | undefined;
    let bestScore = -1;
    for (const name of this.#d.derived[e]!.names) {
      let initials = false;
      let all = true;
      for (let j = 0; j < n && all; j++) {
        if (name.spaced.includes(ctx.starts[j]!)) continue;
        initials = n > 1 && initialsWord(words[j]!) && initialsIn(words[j]!, name);
        all = initials;
      }
      if (!all) continue;
      const whole = name.spaced.includes(ctx.whole);
      let tier: number = TIER.word;
      if (initials) tier = TIER.acronym;
      else if (name.text === ctx.text) tier = TIER.exact;
      else if (inOrder(name, words, ctx.joined)) tier = TIER.prefix;
      // The best name has the best class (a whole last word can outrank the kind of match within a
      // group), as the posting-list scans rank it: one answer however it is found.
      const score = matchClass(table, tier, whole);
      if (score > bestScore) {
        bestScore = score;
        best = { tier, whole, across: false };
      }
    }
    // Words found across the names (languages) of the institution rank above initials in one name.
    if (n === 1 || (best !== undefined && best.tier !== TIER.acronym)) return best;
    const names = this.#d.derived[e]!.names;
    const initials = words.filter((_, j) => !names.some((name) => name.spaced.includes(ctx.starts[j]!)));
    if (!initials.every((w) => initialsWord(w) && names.some((name) => initialsIn(w, name)))) return best;
    if (best !== undefined && initials.length > 0) return best;
    const tier = initials.length > 0 ? TIER.acronym : TIER.word;
    return { tier, whole: names.some((name) => name.spaced.includes(ctx.whole)), across: true };
  }

  /** Institutions whose host is under the longest suffix of `domain` that any host is under. */
  #domainHits(domain: string): readonly number[] {
    const labels = domain.split('.');
    for (let i = 0; i + 2 <= labels.length; i++) {
      const hits = listed(this.#d.domains, labels.slice(i).join('.'));
      if (hits.length > 0) return hits;
    }
    return [];
  }

  /** Every match kind for one institution (recent choices are checked one by one). */
  #tierOf(e: number, ctx: Query, domain: string | undefined): number {
    const [word] = ctx.words;
    if (domain !== undefined && this.#domainHits(domain).includes(e)) return TIER.host;
    const m = this.#match(e, ctx);
    if (m !== undefined) return m.tier;
    if (ctx.words.length === 1 && listed(this.#d.acronyms, word!).includes(e)) return TIER.acronym;
    if (ctx.words.length === 1 && listed(this.#d.labels, word!).includes(e)) return TIER.host;
    return this.#fuzzyTier(e, ctx);
  }

  /** What each query word accepts as a substring or with one typo (computed once per query). */
  #accepts(ctx: Query): (Accepts | undefined)[] {
    ctx.accepts ??= ctx.words.map((word, j) => {
      const [lo, hi] = ctx.ranges[j]!;
      // In a query of several words, a word that starts some word is taken as typed.
      const fuzzy = ctx.words.length === 1 || lo === hi;
      const inside = fuzzy && word.length >= MIN_SUBSTRING ? this.#inside(word) : [];
      const typos = fuzzy && word.length >= MIN_SWAP && word.length <= MAX_TYPO ? this.#typos(word) : [];
      const postings =
        this.#count(lo, hi) +
        inside.reduce((n, w) => n + this.#count(w, w + 1), 0) +
        typos.reduce((n, w) => n + this.#count(w, w + 1), 0);
      return lo === hi && inside.length === 0 && typos.length === 0 ? undefined : { inside, typos, postings };
    });
    return ctx.accepts;
  }

  /** Substrings and one-typo matches: only run when the better kinds left room in the results. */
  #fuzzyStage(ctx: Query, top: TopK): void {
    const accepts = this.#accepts(ctx);
    if (accepts.some((a) => a === undefined)) return;
    let driver = 0;
    for (let j = 1; j < accepts.length; j++) if (accepts[j]!.postings < accepts[driver]!.postings) driver = j;
    const { inside, typos } = accepts[driver]!;
    const single = ctx.words.length === 1;
    const seen = new Set<number>();
    // Each list is in static rank; a list reached by a typo holds nothing better than typo matches
    // that the lists before it did not already yield.
    const visit = (w: number, tier: number) => {
      const offer = (e: number) => {
        if (seen.has(e)) return;
        seen.add(e);
        // One word: the list says how it matched (a better match was ranked by the stages before).
        const t = single ? tier : this.#fuzzyTier(e, ctx);
        if (t >= 0) top.offer(e, this.#key(ctx, e, t), t);
      };
      for (const rest of [false, true])
        this.#scan(top, w, w + 1, rest, this.#ceiling(ctx, tier, 0, false), offer);
    };
    // With one word, what its prefix range holds was ranked by the word stage already.
    if (!single)
      for (let w = ctx.ranges[driver]![0]; w < ctx.ranges[driver]![1]; w++) visit(w, TIER.substring);
    for (const w of inside) visit(w, TIER.substring);
    for (const w of typos) visit(w, TIER.typo);
  }

  /** substring / typo for institution `e`: every word matched in one name, the worst word decides; −1 otherwise. */
  #fuzzyTier(e: number, ctx: Query): number {
    if (this.#accepts(ctx).some((a) => a === undefined)) return -1;
    // Per name, the worst of its words' best kinds (0 prefix, 1 substring, 2 typo); the best name decides.
    const kinds = this.#d.derived[e]!.names.map((name) => {
      const forms = name.spaced.trim().split(' ');
      return Math.max(
        ...ctx.words.map((word) =>
          forms.some((w) => w.startsWith(word))
            ? 0
            : word.length >= MIN_SUBSTRING && forms.some((w) => w.includes(word))
              ? 1
              : forms.some((w) => oneTypo(w, word))
                ? 2
                : 3,
        ),
      );
    });
    const best = Math.min(...kinds.filter((k) => k > 0));
    return best === 1 ? TIER.substring : best === 2 ? TIER.typo : -1;
  }

  /** Dictionary words holding `word` inside (not at their start), in dictionary order. */
  #inside(word: string): number[] {
    // One native search over the joined dictionary: a loop over every word is far slower on a large list.
    const { joined, words } = this.#d;
    const found: number[] = [];
    for (let at = joined.indexOf(word); at !== -1 && found.length < MAX_SUBSTRING_WORDS; ) {
      const start = joined.lastIndexOf('\n', at) + 1;
      const end = joined.indexOf('\n', at);
      if (start < at) found.push(this.#lowerBound(joined.slice(start, end), 0, words.length));
      // One hit per word is enough: go on from the next word.
      at = joined.indexOf(word, start < at ? end + 1 : at + 1);
    }
    return found;
  }

  /**
   * Dictionary words with a prefix one edit (Damerau) away from `word`, but for words it starts. The
   * words that share its first two letters are compared one by one; an edit among the first two
   * letters leaves few words to look up: deleted or swapped letters directly, a replaced or inserted
   * second letter for each letter the dictionary has there. People rarely get the first letter
   * wrong: it is never replaced, nor a letter inserted before it.
   */
  #typos(word: string): number[] {
    const [a, b] = [word[0]!, word[1]!];
    const starts = [
      word.slice(0, 2),
      word.slice(1),
      b + a + word.slice(2),
      a + word.slice(2),
      a + word[2] + b + word.slice(3),
    ];
    const [lo, hi] = this.#range(a);
    for (let x = lo; x < hi; ) {
      const second = this.#d.words[x]![1];
      if (second !== undefined) starts.push(a + second + word.slice(2), a + second + word.slice(1));
      x = second === undefined ? x + 1 : this.#range(a + second, x, hi)[1];
    }
    const out = new Set<number>();
    for (const start of starts) {
      const [from, to] = this.#range(start);
      for (let w = from; w < to; w++) if (oneTypo(this.#d.words[w]!, word)) out.add(w);
    }
    return [...out].sort((x, y) => x - y);
  }

  /** The dictionary range `[lo, hi)` of the words that start with `prefix`, searched within `[from, to)`. */
  #range(prefix: string, from = 0, to = this.#d.words.length): [number, number] {
    const lo = this.#lowerBound(prefix, from, to);
    return [lo, this.#lowerBound(prefix + UPPER, lo, to)];
  }

  #lowerBound(s: string, lo: number, hi: number): number {
    const words = this.#d.words;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Whether `candidate` starts with `word` but for one typo; a four-letter word, only for two swapped letters. */
function oneTypo(candidate: string, word: string): boolean {
  if (word.length >= MIN_TYPO) return typoOf(candidate, word) > 0;
  return word.length >= MIN_SWAP && swapOf(candidate, word);
}

/** A word short enough to be initials ("tu", "uc", "lmu"). */
function initialsWord(word: string): boolean {
  return word.length >= 2 && word.length <= 4;
}

/** Whether the query's words are the name's first words, in order, the last one perhaps in part. */
function inOrder(name: Name, query: readonly string[], joined: string): boolean {
  // Names are words joined by single spaces: starting with the query's words so joined is the same.
  if (name.text.startsWith(joined)) return true;
  if (name.german === undefined) return false;
  // Some words in the German spelling, others not.
  const { words, alt } = wordsOf(name);
  const last = query.length - 1;
  return query.every((q, k) =>
    k < last
      ? words[k] === q || alt?.[k] === q
      : words[k]?.startsWith(q) === true || alt?.[k]?.startsWith(q) === true,
  );
}

/** Whether the words of a name, from some word on, start with the letters of `word`. */
function initialsIn(word: string, name: Name): boolean {
  return initialsFrom(word, wordsOf(name).words) !== -1;
}
