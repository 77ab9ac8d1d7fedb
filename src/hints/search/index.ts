/**
 * The search index, built once per swap of the hint list.
 *
 * Every name of every institution is folded ({@link fold}) and cut into words. The distinct words
 * are sorted into one dictionary, so the words a query word starts are one contiguous range found
 * by binary search; each word has a posting list of the institutions whose names hold it, sorted by
 * static rank. Institutions are numbered in static-rank order (higher education first, then those
 * named in several languages, then alphabetical), so a posting list read from its start yields the
 * best candidates first and a scan can stop as soon as nothing later can enter the top results.
 * The one- and two-letter prefixes that cover many words also get their posting lists merged ahead
 * of time: the first keystroke of a type-ahead reads one sorted list instead of thousands.
 *
 * Acronyms, entityID host labels and e-mail domains are small hash maps. Substrings are found with
 * the engine's native `indexOf` over the joined dictionary (distinct words only, a fraction of the
 * names' size); one-typo variants of a word are generated from the dictionary itself (only letters
 * that some word has at that position) and looked up by binary search.
 */
import { randomBytes } from 'node:crypto';
import type { HintEntry, HintMatchKind, HintSearchOptions, HintSearchResult } from '../types.js';
import { fold, normaliseLang } from './fold.js';
import { highlight } from './highlight.js';
import {
  entityHost,
  HASH_ACRONYM,
  HASH_DOMAIN,
  HASH_LABEL,
  hash31,
  hostKeys,
  hostLabels,
  hostRange,
  KeyCollector,
  KeyTable,
  queryDomain,
} from './host.js';
import {
  ACRONYM_STOP,
  academicWord,
  BOOST,
  classOf,
  KINDS,
  matchClass,
  type RankTable,
  rankTable,
  TIER,
  TopK,
} from './rank.js';
import { sortOrder } from './sort.js';
import { FNV_BASIS, fnvStep, internLatin, WordTable } from './words.js';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 1000;
/** Characters of a query that are used; the rest is ignored (no name is that long). */
export const MAX_QUERY_LENGTH = 256;
const MAX_WORDS = 8;
const MAX_RECENT = 10;
/** Shortest word that a substring match or a typo match is tried for. */
const MIN_SUBSTRING = 3;
const MIN_TYPO = 5;
const MAX_TYPO = 32;
/** Most dictionary words a substring query looks at (a three-letter substring of a huge feed). */
const MAX_SUBSTRING_WORDS = 4096;
/** Largest posting list read to find names that are exactly a query of several words. */
const MAX_EXACT_CANDIDATES = 4096;
/** One- and two-letter prefixes whose words hold more postings than this get a merged list. */
const HEAVY = 2048;
/** Posting flags: the word starts a name of the institution; the name is that one word. */
const FIRST = 1;
const WHOLE = 2;
const UPPER = '\uffff';
/** Bloom filters over blocks of the joined dictionary: 32 words per block, 512 bits of character triples. */
const BLOCK = 32;
const BLOOM_WORDS = 16;

/** A 9-bit hash of three characters. */
function tripleHash(a: number, b: number, c: number): number {
  return Math.imul((a << 20) ^ (b << 10) ^ c, 0x9e3779b1) >>> 23;
}

/** The language whose name is shown for `entry` in `lang`: it, else its primary subtag, else English, else the first. */
export function shownLang(entry: HintEntry, lang: string | undefined): string | undefined {
  const names = entry.names;
  if (lang !== undefined) {
    if (names[lang] !== undefined) return lang;
    const dash = lang.indexOf('-');
    if (dash > 0) {
      const primary = lang.slice(0, dash);
      if (names[primary] !== undefined) return primary;
    }
  }
  if (names.en !== undefined) return 'en';
  for (const key in names) return key;
  return undefined;
}

/** The name shown for `entry` in `lang` (see {@link shownLang}). */
export function pickName(entry: HintEntry, lang: string | undefined): string | undefined {
  const shown = shownLang(entry, lang);
  return shown === undefined ? undefined : entry.names[shown];
}

/** A merged posting list: the institutions that have a name starting with the prefix come first ([0, first)). */
interface Union {
  readonly entities: Uint32Array;
  readonly flags: Uint8Array;
  readonly first: number;
}

/** What a word of the query accepts beyond the words it starts: kind 1 substring, kind 2 typo. */
interface Accepts {
  /** [lo, hi) ranges of the dictionary with their kind, flattened: lo, hi, kind, … */
  readonly ranges: number[];
  /** Single dictionary words holding the query word inside (substring), sorted. */
  readonly singles: Uint32Array;
  readonly postings: number;
}

/** One query, prepared. */
interface Query {
  readonly words: string[];
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  readonly table: RankTable;
  readonly country: number;
  readonly lang: Uint8Array | undefined;
  readonly recent: Set<number>;
  /** The language whose boost applies (its primary subtag), for {@link SearchIndex.#members}. */
  readonly langKey: string | undefined;
  /** Boosts whose institutions the word stage ranked already: 1 country, 2 language (see `#boostPass`). */
  settled: number;
  accepts?: (Accepts | undefined)[];
}

export class SearchIndex {
  /** Institutions in static-rank order. */
  readonly #entries: HintEntry[];
  /** entityID → institution, made on the first search with recent choices (most searches have none). */
  #byId: Map<string, number> | undefined;
  readonly #country: Uint16Array;
  /** 1 for institutions of higher education (a name with an academic word). */
  readonly #academic: Uint8Array;
  readonly #countryIds = new Map<string, number>();
  /** Per language (and primary subtag): 1 for the institutions named in it. */
  readonly #langHas = new Map<string, Uint8Array>();
  /** Records (distinct folded names) of each institution: CSR. */
  readonly #entRec: Uint32Array;
  readonly #recTokStart: Uint32Array;
  readonly #recTok: Uint32Array;
  readonly #tokens: string[];
  readonly #tokText: string;
  readonly #tokStart: Uint32Array;
  readonly #postStart: Uint32Array;
  readonly #post: Uint32Array;
  readonly #flag: Uint8Array;
  /** End of each word's prefix segment: postings [postStart[w], firstEnd[w]) have {@link FIRST}. */
  readonly #firstEnd: Uint32Array;
  readonly #unions = new Map<string, Union>();
  /** The institutions of a country ("c" + id) or named in a language ("l" + tag), in static rank; made on first use. */
  readonly #memberLists = new Map<string, Uint32Array>();
  readonly #blooms: Uint32Array;
  /** Letters that follow the empty head and each one-letter head, filled on first use. */
  readonly #childCache = new Map<string, number[]>();
  /** Acronyms, host labels and e-mail domains (hashed; candidates are verified). */
  readonly #keys: KeyTable;
  /** 1 for dictionary words left out of short acronyms ("of", "van", "de" …). */
  readonly #stop: Uint8Array;
  /** Scratch, shared by searches (which are synchronous): "seen in this scan" stamps. */
  readonly #stamp: Uint32Array;
  #epoch = 0;

  constructor(entries: Iterable<HintEntry>) {
    const input = Array.from(entries);
    const n = input.length;

    // Each phase is its own function, so that `node --cpu-prof` tells them apart (one constructor
    // holding every loop profiled as one block). Build time measured the same either way.
    const { table, recOwnerFirst, recTokEnd, recToks, prior, defRec } = foldRecords(input);
    const tokStr = table.words;

    // Static rank, and the dictionary order.
    const tokOrder = sortOrder(tokStr);
    const t = tokStr.length;
    const finalId = new Uint32Array(t);
    this.#tokens = new Array(t);
    this.#tokStart = new Uint32Array(t + 1);
    let offset = 1;
    for (let i = 0; i < t; i++) {
      const word = tokStr[tokOrder[i]!]!;
      finalId[tokOrder[i]!] = i;
      this.#tokens[i] = word;
      this.#tokStart[i] = offset;
      offset += word.length + 1;
    }
    this.#tokStart[t] = offset;
    this.#tokText = `\n${this.#tokens.join('\n')}\n`;
    this.#blooms = buildBlooms(this.#tokens);

    const entOrder = staticOrder(prior, defRec, recTokEnd, recToks, finalId);
    this.#stop = new Uint8Array(t);
    for (const word of ACRONYM_STOP) {
      const w = this.#lowerBound(word, 0, t);
      if (this.#tokens[w] === word) this.#stop[w] = 1;
    }
    const keys = new KeyCollector();

    // Pass 2, static-rank order: records, postings, acronyms, hosts, countries, languages.
    this.#entries = new Array(n);
    this.#country = new Uint16Array(n);
    this.#academic = new Uint8Array(n);
    const records = recTokEnd.length;
    this.#entRec = new Uint32Array(n + 1);
    this.#recTokStart = new Uint32Array(records + 1);
    this.#recTok = new Uint32Array(recToks.length);
    const entRec = this.#entRec;
    const recTokStart = this.#recTokStart;
    const recTok = this.#recTok;
    const [r, k] = reorderRecords(
      entOrder,
      recOwnerFirst,
      recTokEnd,
      recToks,
      finalId,
      entRec,
      recTokStart,
      recTok,
    );
    this.#fileEntries(input, entOrder, prior, keys);
    entRec[n] = r;
    recTokStart[records] = k;
    this.#postStart = new Uint32Array(t + 1);
    const [post, flag, firstEnd] = buildPostings(n, t, entRec, recTokStart, recTok, this.#postStart);
    this.#post = post;
    this.#flag = flag;
    this.#firstEnd = firstEnd;
    for (let i = 0; i < n; i++) {
      for (let rec = entRec[i]!; rec < entRec[i + 1]!; rec++) {
        const a = recTokStart[rec]!;
        const b = recTokStart[rec + 1]!;
        if (b - a >= 2 && b - a <= 12) this.#addAcronyms(a, b, i, keys);
      }
    }
    this.#keys = new KeyTable(keys);
    this.#buildUnions(n);
    this.#stamp = new Uint32Array(n);
  }

  /** Static-rank order: entries, academic flags, countries, languages and host keys. */
  #fileEntries(
    input: readonly HintEntry[],
    entOrder: Uint32Array,
    prior: Uint8Array,
    keys: KeyCollector,
  ): void {
    const n = entOrder.length;
    const entriesOut = this.#entries;
    const countryOut = this.#country;
    const countryIds = this.#countryIds;
    const academicOut = this.#academic;
    let lastLang = '';
    let lastHas: Uint8Array | undefined;
    for (let i = 0; i < n; i++) {
      const old = entOrder[i]!;
      const entry = input[old]!;
      entriesOut[i] = entry;
      if (prior[old]! >= 2) academicOut[i] = 1;
      if (entry.country !== undefined) {
        let id = countryIds.get(entry.country);
        if (id === undefined) {
          id = countryIds.size + 1;
          countryIds.set(entry.country, id);
        }
        countryOut[i] = id;
      }
      for (const lang in entry.names) {
        if (lang !== lastLang) {
          lastLang = lang;
          lastHas = this.#langArray(lang, n);
        }
        lastHas![i] = 1;
        const dash = lang.indexOf('-');
        if (dash > 0) this.#langArray(lang.slice(0, dash), n)[i] = 1;
      }
      const host = hostRange(entry.entityId);
      if (host !== undefined) hostKeys(entry.entityId, host[0], host[1], i, keys);
    }
  }

  #langArray(lang: string, n: number): Uint8Array {
    let has = this.#langHas.get(lang);
    if (has === undefined) {
      has = new Uint8Array(n);
      this.#langHas.set(lang, has);
    }
    return has;
  }

  /** "universiteit van amsterdam" → "uva"; "massachusetts institute of technology" → "mit" (and "miot"). */
  #addAcronyms(a: number, b: number, entity: number, keys: KeyCollector): void {
    let all = (FNV_BASIS ^ HASH_ACRONYM) >>> 0;
    let short = all;
    let shortLength = 0;
    for (let j = a; j < b; j++) {
      const w = this.#recTok[j]!;
      const c = this.#tokens[w]!.charCodeAt(0);
      all = fnvStep(all, c);
      if (this.#stop[w] === 0) {
        short = fnvStep(short, c);
        shortLength++;
      }
    }
    keys.push(all >>> 2, entity);
    if (shortLength >= 2 && shortLength < b - a) keys.push(short >>> 2, entity);
  }

  #host(e: number): string | undefined {
    return entityHost(this.#entries[e]!.entityId);
  }

  /** The acronyms of institution `e`'s names. */
  #acronymsOf(e: number): string[] {
    const out: string[] = [];
    for (let rec = this.#entRec[e]!; rec < this.#entRec[e + 1]!; rec++) {
      let all = '';
      let short = '';
      for (let j = this.#recTokStart[rec]!; j < this.#recTokStart[rec + 1]!; j++) {
        const w = this.#recTok[j]!;
        all += this.#tokens[w]![0];
        if (this.#stop[w] === 0) short += this.#tokens[w]![0];
      }
      out.push(all, short);
    }
    return out;
  }

  /** Institutions whose names have the acronym `word`. */
  #acronymHits(word: string): number[] {
    return this.#keys.get(hash31(HASH_ACRONYM, word)).filter((e) => this.#acronymsOf(e).includes(word));
  }

  /** Institutions with a host label `word` (`rug` → signon.rug.nl). */
  #labelHits(word: string): number[] {
    return this.#keys.get(hash31(HASH_LABEL, word)).filter((e) => {
      const host = this.#host(e);
      return host !== undefined && hostLabels(host).includes(word);
    });
  }

  /** Institutions whose host is under the longest suffix of `domain` that any host is under. */
  #domainHits(domain: string): number[] {
    const labels = domain.split('.');
    for (let i = 0; i + 2 <= labels.length; i++) {
      const suffix = labels.slice(i).join('.');
      const hits = this.#keys.get(hash31(HASH_DOMAIN, suffix)).filter((e) => {
        const host = this.#host(e);
        return host !== undefined && (host === suffix || host.endsWith(`.${suffix}`));
      });
      if (hits.length > 0) return hits;
    }
    return [];
  }

  /** Merged posting lists of the heavy one- and two-letter prefixes (see the file comment). */
  #buildUnions(n: number): void {
    const tokens = this.#tokens;
    const t = tokens.length;
    const acc = new Uint8Array(n);
    const touched = new Uint32Array(n);
    for (const len of [1, 2]) {
      for (let i = 0; i < t; ) {
        const word = tokens[i]!;
        if (word.length < len) {
          i++;
          continue;
        }
        const prefix = word.slice(0, len);
        const j = this.#lowerBound(prefix + UPPER, i, t);
        const a = this.#postStart[i]!;
        const b = this.#postStart[j]!;
        if (b - a > HEAVY) {
          let m = 0;
          for (let p = a; p < b; p++) {
            const e = this.#post[p]!;
            if (acc[e] === 0) touched[m++] = e;
            acc[e]! |= 1 | (this.#flag[p]! << 1);
          }
          // A sweep over every institution beats sorting a list that holds a good part of them.
          let entities: Uint32Array;
          if (m > n >>> 4) {
            entities = new Uint32Array(m);
            for (let e = 0, x = 0; e < n; e++) if (acc[e] !== 0) entities[x++] = e;
          } else {
            entities = touched.slice(0, m).sort();
          }
          const flags = new Uint8Array(m);
          for (let x = 0; x < m; x++) {
            const e = entities[x]!;
            flags[x] = acc[e]! >> 1;
            acc[e] = 0;
          }
          this.#unions.set(prefix, partition(entities, flags, 0, m));
        }
        i = j;
      }
    }
  }

  /** Identifies this index (this version of the list): changes with every swap. */
  readonly version: string = randomBytes(9).toString('base64url');

  /** Number of records (distinct folded names). */
  get records(): number {
    return this.#recTokStart.length - 1;
  }

  /** Number of institutions. */
  get size(): number {
    return this.#entries.length;
  }

  search(query: string, options: HintSearchOptions = {}): HintSearchResult[] {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const raw = query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query;
    const q = fold(raw);
    if (!q || limit <= 0 || this.#entries.length === 0) return [];
    const words = [...new Set(q.split(' '))].slice(0, MAX_WORDS);
    const lang = options.lang === undefined ? undefined : normaliseLang(options.lang);
    const dash = lang === undefined ? -1 : lang.indexOf('-');
    const langKey = lang === undefined ? undefined : dash > 0 ? lang.slice(0, dash) : lang;
    const recent = new Set<number>();
    for (const id of options.recent?.slice(0, MAX_RECENT) ?? []) {
      this.#byId ??= new Map(this.#entries.map((entry, i) => [entry.entityId, i]));
      const e = this.#byId.get(id);
      if (e !== undefined) recent.add(e);
    }
    const trimmed = raw.trim();
    // "UvA", "KTH": a short word with two capitals or more reads as an acronym.
    const acronymFirst =
      words.length === 1 && /^\p{L}{2,8}$/u.test(trimmed) && (trimmed.match(/\p{Lu}/gu)?.length ?? 0) >= 2;
    const n = words.length;
    const ctx: Query = {
      words,
      lo: new Int32Array(n),
      hi: new Int32Array(n),
      table: rankTable(acronymFirst),
      country: options.country === undefined ? 0 : (this.#countryIds.get(options.country.toUpperCase()) ?? 0),
      lang: langKey === undefined ? undefined : this.#langHas.get(langKey),
      recent,
      langKey,
      settled: 0,
    };
    for (let j = 0; j < n; j++) {
      ctx.lo[j] = this.#lowerBound(words[j]!, 0, this.#tokens.length);
      ctx.hi[j] = this.#lowerBound(words[j]! + UPPER, ctx.lo[j]!, this.#tokens.length);
    }
    const top = new TopK(limit);
    const domain = queryDomain(raw);

    // Recent choices first, whatever matched them.
    for (const e of recent) {
      const tier = this.#tierOf(e, ctx, domain);
      if (tier >= 0) top.offer(e, this.#key(ctx, e, tier), tier);
    }
    if (domain !== undefined) this.#domainStage(ctx, top, domain);
    // An e-mail address says where the shopper studies or works: nothing else about it is a name.
    const email = domain !== undefined && raw.includes('@');
    if (!email && this.#canEnter(ctx, top, TIER.prefix)) {
      if (n === 1) this.#wordStage(ctx, top);
      else this.#wordsStage(ctx, top);
      // The boost passes ranked prefix and word matches only: the stages after them make room for boosts.
      ctx.settled = 0;
    }
    if (
      !email &&
      n === 1 &&
      words[0]!.length >= 2 &&
      words[0]!.length <= 12 &&
      this.#canEnter(ctx, top, TIER.acronym)
    ) {
      for (const e of this.#acronymHits(words[0]!))
        top.offer(e, this.#key(ctx, e, TIER.acronym), TIER.acronym);
    }
    if (!email && n === 1 && this.#canEnter(ctx, top, TIER.host)) {
      for (const e of this.#labelHits(words[0]!)) top.offer(e, this.#key(ctx, e, TIER.host), TIER.host);
    }
    if (!email && (this.#canEnter(ctx, top, TIER.substring) || this.#canEnter(ctx, top, TIER.typo))) {
      this.#fuzzyStage(ctx, top);
    }

    const out: HintSearchResult[] = [];
    for (let i = 0; i < top.size; i++) {
      const e = top.entities[i]!;
      const kind = KINDS[top.tiers[i]!]!;
      out.push(this.#result(e, kind, words, lang, domain));
    }
    return out;
  }

  #result(
    e: number,
    kind: HintMatchKind,
    words: string[],
    lang: string | undefined,
    domain: string | undefined,
  ): HintSearchResult {
    const entry = this.#entries[e]!;
    const name = pickName(entry, lang) ?? entry.entityId;
    if (kind === 'host') return result(entry, name, kind, [], this.#host(e));
    const ranges = highlight(name, words, kind);
    if (ranges !== undefined) return result(entry, name, kind, ranges, undefined);
    for (const other in entry.names) {
      const text = entry.names[other]!;
      if (text !== name && highlight(text, words, kind) !== undefined)
        return result(entry, name, kind, [], text);
    }
    return result(entry, name, kind, [], domain === undefined ? undefined : this.#host(e));
  }

  /** The class of candidate `e` matched as `tier` (see {@link TopK}). */
  #key(ctx: Query, e: number, tier: number, whole = false): number {
    let cls = matchClass(ctx.table, tier, whole);
    if (ctx.country !== 0 && this.#country[e] === ctx.country) cls += BOOST.country;
    if (ctx.lang !== undefined && ctx.lang[e] === 1) cls += BOOST.lang;
    if (this.#academic[e] === 1) cls += BOOST.academic;
    if (ctx.recent.size !== 0 && ctx.recent.has(e)) cls += BOOST.recent;
    return cls;
  }

  /** The best class any non-recent candidate of `tier` at static rank `e` or later could have. */
  #ceiling(ctx: Query, tier: number, e: number, whole = true): number {
    // Institutions of higher education come first in static rank, so `academic[e]` bounds every later one.
    return this.#ceilingClass(ctx, tier, e === 0 || this.#academic[e] === 1, whole);
  }

  #ceilingClass(ctx: Query, tier: number, academic: boolean, whole: boolean): number {
    const country = ctx.country !== 0 && (ctx.settled & 1) === 0;
    const lang = ctx.lang !== undefined && (ctx.settled & 2) === 0;
    return classOf(ctx.table, tier, false, country, lang, academic, whole);
  }

  /**
   * The shopper's country and language raise results, so a scan of a long posting list in static rank
   * cannot stop while some later institution might still be boosted: a one-letter query with a country
   * read the whole list (thousands of postings, the slowest queries at 6,500 institutions). When the
   * country's (or language's) institutions are few next to the list, they are ranked first from their
   * own list, and the scan after it leaves the boost out of its ceiling.
   */
  #boostPass(ctx: Query, top: TopK, postings: number): void {
    // The flags are set after both passes, so that each pass's own early stop leaves room for every boost.
    let settled = 0;
    if (ctx.country !== 0) {
      const list = this.#members(`c${ctx.country}`, this.#country, ctx.country);
      if (list.length * 8 <= postings) {
        this.#rankAll(ctx, top, list);
        settled |= 1;
      }
    }
    if (ctx.langKey !== undefined && ctx.lang !== undefined) {
      const list = this.#members(`l${ctx.langKey}`, ctx.lang, 1);
      if (list.length * 8 <= postings) {
        this.#rankAll(ctx, top, list);
        settled |= 2;
      }
    }
    ctx.settled = settled;
  }

  /** Every institution of `list` (static-rank order) that the query's words start words of, ranked. */
  #rankAll(ctx: Query, top: TopK, list: Uint32Array): void {
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (!top.beats(this.#ceiling(ctx, TIER.exact, e, true), e)) return;
      const code = this.#prefixTier(e, ctx);
      if (code >= 0) top.offer(e, this.#key(ctx, e, code & 7, (code & 8) !== 0), code & 7);
    }
  }

  /** The institutions whose `values[e]` is `value` (a country id, a language flag), in static rank; kept under `key`. */
  #members(key: string, values: ArrayLike<number>, value: number): Uint32Array {
    let list = this.#memberLists.get(key);
    if (list !== undefined) return list;
    const n = this.#entries.length;
    let count = 0;
    for (let e = 0; e < n; e++) if (values[e] === value) count++;
    list = new Uint32Array(count);
    for (let e = 0, x = 0; e < n; e++) if (values[e] === value) list[x++] = e;
    this.#memberLists.set(key, list);
    return list;
  }

  /** Whether any candidate of `tier` could still enter the results. */
  #canEnter(ctx: Query, top: TopK, tier: number): boolean {
    return top.beats(this.#ceiling(ctx, tier, 0), 0);
  }

  #nextEpoch(): number {
    if (this.#epoch >= 0xfffffff0) {
      this.#stamp.fill(0);
      this.#epoch = 0;
    }
    return ++this.#epoch;
  }

  /** One query word: names it is (exact), names it starts (prefix), names with a word it starts. */
  #wordStage(ctx: Query, top: TopK): void {
    const word = ctx.words[0]!;
    const lo = ctx.lo[0]!;
    const hi = ctx.hi[0]!;
    if (lo === hi) return;
    const post = this.#post;
    const flag = this.#flag;
    const union = this.#unions.get(word);
    this.#boostPass(ctx, top, union?.entities.length ?? this.#postStart[hi]! - this.#postStart[lo]!);
    if (this.#tokens[lo] === word) {
      for (let p = this.#postStart[lo]!; p < this.#postStart[lo + 1]!; p++) {
        if (flag[p]! & WHOLE) top.offer(post[p]!, this.#key(ctx, post[p]!, TIER.exact), TIER.exact);
      }
    }
    // Prefix matches first, then word matches: each segment is in static-rank order, so a scan stops
    // as soon as nothing later in it can enter the results.
    if (union !== undefined) {
      this.#scan(ctx, top, union.entities, 0, union.first, TIER.prefix);
      if (this.#canEnter(ctx, top, TIER.word))
        this.#scan(ctx, top, union.entities, union.first, union.entities.length, TIER.word);
      return;
    }
    // The word itself (a whole word of the name) before the longer words it starts.
    const whole = this.#tokens[lo] === word ? lo : -1;
    for (let w = lo; w < hi; w++)
      this.#scan(ctx, top, post, this.#postStart[w]!, this.#firstEnd[w]!, TIER.prefix, w === whole);
    if (!this.#canEnter(ctx, top, TIER.word)) return;
    for (let w = lo; w < hi; w++)
      this.#scan(ctx, top, post, this.#firstEnd[w]!, this.#postStart[w + 1]!, TIER.word, w === whole);
  }

  #scan(
    ctx: Query,
    top: TopK,
    list: Uint32Array,
    from: number,
    to: number,
    tier: number,
    whole = false,
  ): void {
    // The ceiling of a later candidate only depends on whether it is academic: two numbers, once.
    const high = this.#ceilingClass(ctx, tier, true, whole);
    const low = this.#ceilingClass(ctx, tier, false, whole);
    const academic = this.#academic;
    for (let p = from; p < to; p++) {
      const e = list[p]!;
      if (!top.beats(academic[e] === 1 ? high : low, e)) return;
      const cls = this.#key(ctx, e, tier, whole);
      if (top.beats(cls, e)) top.offer(e, cls, tier);
    }
  }

  /**
   * Several words: every one must start a word of the same name, in any order, or (a short word)
   * be the initials of words in a row of it ("tu dresden", "uc berkeley").
   */
  #wordsStage(ctx: Query, top: TopK): void {
    const n = ctx.words.length;
    let driver = -1;
    let best = Number.POSITIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      const union = this.#unions.get(ctx.words[j]!);
      const size = union?.entities.length ?? this.#postStart[ctx.hi[j]!]! - this.#postStart[ctx.lo[j]!]!;
      if (size === 0 && !initialsWord(ctx.words[j]!)) return;
      // A word that may be initials never drives: the names it abbreviates are not in its range.
      if (size > 0 && !initialsWord(ctx.words[j]!) && size < best) {
        best = size;
        driver = j;
      }
    }
    if (driver === -1) {
      // Only short words: the smallest range drives after all.
      for (let j = 0; j < n; j++) {
        const size = this.#postStart[ctx.hi[j]!]! - this.#postStart[ctx.lo[j]!]!;
        if (size > 0 && size < best) {
          best = size;
          driver = j;
        }
      }
      if (driver === -1) return;
    }
    this.#boostPass(ctx, top, best);
    const epoch = this.#nextEpoch();
    this.#exactNames(ctx, top, epoch);
    // The last word can only be a whole word of a name when the dictionary holds it.
    const whole = this.#tokens[ctx.lo[n - 1]!] === ctx.words[n - 1];
    const visit = (e: number, ceiling: number): boolean => {
      if (!top.beats(this.#ceiling(ctx, ceiling, e, whole), e)) return false;
      if (this.#stamp[e] === epoch) return true;
      this.#stamp[e] = epoch;
      const code = this.#prefixTier(e, ctx);
      if (code >= 0) top.offer(e, this.#key(ctx, e, code & 7, (code & 8) !== 0), code & 7);
      return true;
    };
    // Only a name whose first word the first query word starts can be an exact or prefix match:
    // when that word drives, its second segment holds word matches at best.
    const union = this.#unions.get(ctx.words[driver]!);
    if (union !== undefined) {
      for (let i = 0; i < union.entities.length; i++) {
        const ceiling = driver === 0 && i >= union.first ? TIER.word : TIER.prefix;
        if (!visit(union.entities[i]!, ceiling)) break;
      }
      return;
    }
    for (const second of [false, true]) {
      for (let w = ctx.lo[driver]!; w < ctx.hi[driver]!; w++) {
        const from = second ? this.#firstEnd[w]! : this.#postStart[w]!;
        const to = second ? this.#postStart[w + 1]! : this.#firstEnd[w]!;
        const ceiling = driver === 0 && second ? TIER.word : TIER.prefix;
        for (let p = from; p < to; p++) if (!visit(this.#post[p]!, ceiling)) break;
      }
    }
  }

  /**
   * Names that are exactly the query's words: found from the rarest word's own posting list (each
   * query word must be a whole word of such a name), so the scans after it can stop at prefix matches.
   */
  #exactNames(ctx: Query, top: TopK, epoch: number): void {
    let rarest = -1;
    let size = MAX_EXACT_CANDIDATES + 1;
    for (let j = 0; j < ctx.words.length; j++) {
      const w = ctx.lo[j]!;
      if (w >= ctx.hi[j]! || this.#tokens[w] !== ctx.words[j]) return;
      const count = this.#postStart[w + 1]! - this.#postStart[w]!;
      if (count < size) {
        size = count;
        rarest = w;
      }
    }
    if (rarest === -1) return;
    for (let p = this.#postStart[rarest]!; p < this.#postStart[rarest + 1]!; p++) {
      const e = this.#post[p]!;
      const code = this.#prefixTier(e, ctx);
      if ((code & 7) === TIER.exact) {
        this.#stamp[e] = epoch;
        top.offer(e, this.#key(ctx, e, TIER.exact, true), TIER.exact);
      }
    }
  }

  /**
   * The best of exact / prefix / word / acronym (initials for a short word) for institution `e`, with
   * 8 added when the last query word is a whole word of that name; −1 when no name holds every word.
   */
  #prefixTier(e: number, ctx: Query): number {
    const { words, lo, hi } = ctx;
    const n = words.length;
    const last = words[n - 1]!;
    let best = -1;
    let bestScore = -1;
    for (let rec = this.#entRec[e]!; rec < this.#entRec[e + 1]!; rec++) {
      const a = this.#recTokStart[rec]!;
      const b = this.#recTokStart[rec + 1]!;
      let all = true;
      let initials = false;
      let whole = false;
      for (let j = 0; j < n && all; j++) {
        let found = false;
        for (let x = a; x < b; x++) {
          const w = this.#recTok[x]!;
          if (w >= lo[j]! && w < hi[j]!) {
            found = true;
            if (j === n - 1 && this.#tokens[w] === last) whole = true;
            if (j < n - 1 || whole) break;
          }
        }
        if (!found && n > 1 && initialsWord(words[j]!) && this.#initialsIn(words[j]!, a, b)) {
          found = true;
          initials = true;
        }
        all = found;
      }
      if (!all) continue;
      let tier: number;
      if (initials) {
        tier = TIER.acronym;
      } else {
        // In order from the start: prefix; and nothing more: exact.
        let inOrder = b - a >= n;
        for (let j = 0; j < n && inOrder; j++) {
          const word = this.#tokens[this.#recTok[a + j]!]!;
          inOrder = j < n - 1 ? word === words[j] : word.startsWith(words[j]!);
        }
        tier = inOrder
          ? b - a === n && this.#tokens[this.#recTok[b - 1]!] === last
            ? TIER.exact
            : TIER.prefix
          : TIER.word;
      }
      // The best name is the one with the best class (a whole last word can outrank the kind of
      // match within a group), as the posting-list scans rank it: one answer however it is found.
      const score = matchClass(ctx.table, tier, whole);
      if (score > bestScore) {
        bestScore = score;
        best = tier | (whole ? 8 : 0);
      }
      if (tier === TIER.exact) break;
    }
    return best;
  }

  /** Whether the words of a name, from some word on, start with the letters of `word` (stop words may be skipped). */
  #initialsIn(word: string, a: number, b: number): boolean {
    for (let x = a; x < b; x++) {
      let k = 0;
      for (let y = x; y < b && k < word.length; y++) {
        const token = this.#tokens[this.#recTok[y]!]!;
        if (token.charCodeAt(0) === word.charCodeAt(k)) k++;
        else if (k === 0 || this.#stop[this.#recTok[y]!] === 0) break;
      }
      if (k === word.length) return true;
    }
    return false;
  }

  /** An e-mail address or a domain: institutions whose entityID host is under its longest known suffix. */
  #domainStage(ctx: Query, top: TopK, domain: string): void {
    for (const e of this.#domainHits(domain)) top.offer(e, this.#key(ctx, e, TIER.host), TIER.host);
  }

  /** Every match kind for one institution (recent choices are checked one by one). */
  #tierOf(e: number, ctx: Query, domain: string | undefined): number {
    if (domain !== undefined && this.#domainHits(domain).includes(e)) return TIER.host;
    const prefix = this.#prefixTier(e, ctx);
    if (prefix >= 0) return prefix & 7;
    if (ctx.words.length === 1) {
      if (this.#acronymsOf(e).includes(ctx.words[0]!)) return TIER.acronym;
      const host = this.#host(e);
      if (host !== undefined && hostLabels(host).includes(ctx.words[0]!)) return TIER.host;
    }
    return this.#fuzzyTier(e, this.#accepts(ctx));
  }

  /** What each query word accepts as a substring or with one typo (computed once per query). */
  #accepts(ctx: Query): (Accepts | undefined)[] {
    if (ctx.accepts !== undefined) return ctx.accepts;
    ctx.accepts = ctx.words.map((word, j) => {
      const ranges: number[] = [];
      let postings = 0;
      if (ctx.lo[j]! < ctx.hi[j]!) {
        ranges.push(ctx.lo[j]!, ctx.hi[j]!, 0);
        postings += this.#postStart[ctx.hi[j]!]! - this.#postStart[ctx.lo[j]!]!;
      }
      let singles: Uint32Array = new Uint32Array(0);
      // In a query of several words, a word that starts some word is taken as typed.
      const fuzzy = ctx.words.length === 1 || ranges.length === 0;
      if (fuzzy && word.length >= MIN_SUBSTRING) {
        singles = this.#substringWords(word);
        for (const w of singles) postings += this.#postStart[w + 1]! - this.#postStart[w]!;
      }
      if (fuzzy && word.length >= MIN_TYPO && word.length <= MAX_TYPO)
        postings += this.#typoRanges(word, ranges);
      return ranges.length === 0 && singles.length === 0 ? undefined : { ranges, singles, postings };
    });
    return ctx.accepts;
  }

  /** Substrings and one-typo matches: only run when the better kinds left room in the results. */
  #fuzzyStage(ctx: Query, top: TopK): void {
    const accepts = this.#accepts(ctx);
    let driver = -1;
    for (let j = 0; j < accepts.length; j++) {
      const a = accepts[j];
      if (a === undefined) return;
      if (driver === -1 || a.postings < accepts[driver]!.postings) driver = j;
    }
    const { ranges, singles } = accepts[driver]!;
    const single = ctx.words.length === 1;
    const epoch = this.#nextEpoch();
    // Each posting list is in static-rank order; a list reached by a typo holds nothing better than
    // typo matches that the lists before it did not already yield.
    const visitList = (from: number, to: number, ceilingTier: number) => {
      for (let p = from; p < to; p++) {
        const e = this.#post[p]!;
        if (!top.beats(this.#ceiling(ctx, ceilingTier, e, false), e)) return;
        if (this.#stamp[e] === epoch) continue;
        this.#stamp[e] = epoch;
        // One word: the list says how it matched (a better match was ranked by the stages before).
        const tier = single ? ceilingTier : this.#fuzzyTier(e, accepts);
        if (tier >= 0) top.offer(e, this.#key(ctx, e, tier), tier);
      }
    };
    // With one word, what its prefix range holds was ranked by the word stage already.
    for (const kind of ctx.words.length === 1 ? [1, 2] : [0, 1, 2]) {
      const ceilingTier = kind === 2 ? TIER.typo : TIER.substring;
      if (kind === 1)
        for (const w of singles) visitList(this.#postStart[w]!, this.#postStart[w + 1]!, ceilingTier);
      for (let i = 0; i < ranges.length; i += 3) {
        if (ranges[i + 2] !== kind) continue;
        for (let w = ranges[i]!; w < ranges[i + 1]!; w++) {
          visitList(this.#postStart[w]!, this.#postStart[w + 1]!, ceilingTier);
        }
      }
    }
  }

  /** substring / typo for institution `e`: every word matched in one name, the worst word decides. −1 otherwise (or when all matched as prefixes). */
  #fuzzyTier(e: number, accepts: (Accepts | undefined)[]): number {
    if (accepts.some((a) => a === undefined)) return -1;
    let best = -1;
    for (let rec = this.#entRec[e]!; rec < this.#entRec[e + 1]!; rec++) {
      const a = this.#recTokStart[rec]!;
      const b = this.#recTokStart[rec + 1]!;
      let worst = 0;
      for (let j = 0; j < accepts.length && worst >= 0; j++) {
        const acc = accepts[j]!;
        let kind = 3;
        for (let x = a; x < b && kind > 0; x++) {
          const w = this.#recTok[x]!;
          for (let i = 0; i < acc.ranges.length; i += 3) {
            if (w >= acc.ranges[i]! && w < acc.ranges[i + 1]! && acc.ranges[i + 2]! < kind)
              kind = acc.ranges[i + 2]!;
          }
          if (kind > 1 && binaryHas(acc.singles, w)) kind = 1;
        }
        worst = kind === 3 ? -1 : Math.max(worst, kind);
      }
      if (worst <= 0) continue;
      const tier = worst === 1 ? TIER.substring : TIER.typo;
      if (best === -1 || tier < best) best = tier;
    }
    return best;
  }

  /**
   * Dictionary words holding `word` inside (not at their start), in dictionary order. Only blocks of
   * the joined dictionary whose Bloom filter has every character triple of `word` are searched.
   */
  #substringWords(word: string): Uint32Array {
    const bits: number[] = [];
    for (let i = 2; i < word.length; i++) {
      const h = tripleHash(word.charCodeAt(i - 2), word.charCodeAt(i - 1), word.charCodeAt(i));
      if (!bits.includes(h)) bits.push(h);
    }
    const found: number[] = [];
    const text = this.#tokText;
    const starts = this.#tokStart;
    const t = this.#tokens.length;
    const blooms = this.#blooms;
    for (let b = 0, blocks = Math.ceil(t / BLOCK); b < blocks && found.length < MAX_SUBSTRING_WORDS; b++) {
      const base = b * BLOOM_WORDS;
      let may = true;
      for (const h of bits) {
        if ((blooms[base + (h >>> 5)]! & (1 << (h & 31))) === 0) {
          may = false;
          break;
        }
      }
      if (!may) continue;
      const start = starts[b * BLOCK]!;
      const block = text.slice(start, starts[Math.min((b + 1) * BLOCK, t)]!);
      for (let at = block.indexOf(word); at !== -1; ) {
        if (at > 0 && block.charCodeAt(at - 1) !== 10) {
          const w = this.#tokenAt(start + at);
          found.push(w);
          // One hit per word is enough: go on from the next word.
          at = block.indexOf(word, starts[w + 1]! - start);
        } else {
          at = block.indexOf(word, at + 1);
        }
      }
    }
    return Uint32Array.from(found);
  }

  /**
   * Dictionary ranges one edit (Damerau: delete, swap neighbours, replace, insert) away from `word`,
   * read as a prefix, appended to `out` as (lo, hi, 2) triples; returns their postings. Replacements
   * and insertions only try letters that some word has at that position, and every lookup stays
   * within the range of the letters before the edit, which shrinks fast.
   */
  #typoRanges(word: string, out: number[]): number {
    const seen = new Set<string>();
    let postings = 0;
    const add = (variant: string, lo: number, hi: number) => {
      if (variant.length < MIN_TYPO - 1 || variant === word || seen.has(variant)) return;
      seen.add(variant);
      const a = this.#lowerBound(variant, lo, hi);
      const b = this.#lowerBound(variant + UPPER, a, hi);
      if (a < b) {
        out.push(a, b, 2);
        postings += this.#postStart[b]! - this.#postStart[a]!;
      }
    };
    let lo = 0;
    let hi = this.#tokens.length;
    for (let i = 0; i < word.length && lo < hi; i++) {
      const head = word.slice(0, i);
      add(head + word.slice(i + 1), lo, hi);
      if (i + 1 < word.length && word[i] !== word[i + 1])
        add(head + word[i + 1] + word[i] + word.slice(i + 2), lo, hi);
      // Replacing or inserting a first letter would try every letter of the alphabet against the whole
      // dictionary; people rarely get the first letter wrong, so those two edits start at the second.
      const children = i === 0 ? [] : this.#children(head, i, lo, hi);
      for (let k = 0; k < children.length; k += 3) {
        const c = String.fromCharCode(children[k]!);
        if (c === word[i]) continue;
        add(head + c + word.slice(i + 1), children[k + 1]!, children[k + 2]!);
        add(head + c + word.slice(i), children[k + 1]!, children[k + 2]!);
      }
      // Narrow to the words that start with the first i + 1 letters.
      const a = this.#lowerBound(head + word[i], lo, hi);
      hi = this.#lowerBound(head + word[i] + UPPER, a, hi);
      lo = a;
    }
    return postings;
  }

  /** The letters that follow `head` (the words in [lo, hi)) with their ranges: (code, lo, hi) triples. Cached for heads of up to one letter. */
  #children(head: string, i: number, lo: number, hi: number): number[] {
    const cached = i <= 1 ? this.#childCache.get(head) : undefined;
    if (cached !== undefined) return cached;
    const out: number[] = [];
    let x = lo;
    if (x < hi && this.#tokens[x]!.length === i) x++;
    while (x < hi) {
      const c = this.#tokens[x]!.charCodeAt(i);
      const y = this.#lowerBound(head + String.fromCharCode(c) + UPPER, x, hi);
      out.push(c, x, y);
      x = y;
    }
    if (i <= 1) this.#childCache.set(head, out);
    return out;
  }

  /** First dictionary word in [lo, hi) that is >= s. */
  #lowerBound(s: string, lo: number, hi: number): number {
    const tokens = this.#tokens;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (tokens[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The dictionary word holding position `pos` of the joined dictionary. */
  #tokenAt(pos: number): number {
    const starts = this.#tokStart;
    let lo = 0;
    let hi = starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/**
 * One result, always built the same way: spreading a base object into results of different shapes
 * made new hidden classes that outlived each query until the next full collection (search p99:
 * slow young-generation collections).
 */
function result(
  entry: HintEntry,
  name: string,
  match: HintMatchKind,
  ranges: readonly (readonly [number, number])[],
  matchedText: string | undefined,
): HintSearchResult {
  const out: { -readonly [K in keyof HintSearchResult]: HintSearchResult[K] } = {
    entityId: entry.entityId,
    name,
    country: entry.country,
    match,
    ranges,
  };
  if (matchedText !== undefined) out.matchedText = matchedText;
  return out;
}

/** Records and their word ids (final dictionary ids) in static-rank order (CSR); returns the counts. */
function reorderRecords(
  entOrder: Uint32Array,
  recOwnerFirst: Uint32Array,
  recTokEnd: readonly number[],
  recToks: readonly number[],
  finalId: Uint32Array,
  entRec: Uint32Array,
  recTokStart: Uint32Array,
  recTok: Uint32Array,
): [number, number] {
  const n = entOrder.length;
  let r = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const old = entOrder[i]!;
    entRec[i] = r;
    for (let or = recOwnerFirst[old]!; or < recOwnerFirst[old + 1]!; or++, r++) {
      recTokStart[r] = k;
      for (let j = or === 0 ? 0 : recTokEnd[or - 1]!; j < recTokEnd[or]!; j++)
        recTok[k++] = finalId[recToks[j]!]!;
    }
  }
  return [r, k];
}

/** Bloom filters of the character triples of each block of {@link BLOCK} dictionary words. */
function buildBlooms(tokens: readonly string[]): Uint32Array {
  const t = tokens.length;
  const blooms = new Uint32Array(Math.ceil(t / BLOCK) * BLOOM_WORDS);
  for (let i = 0; i < t; i++) {
    const word = tokens[i]!;
    const base = Math.floor(i / BLOCK) * BLOOM_WORDS;
    for (let c = 2; c < word.length; c++) {
      const h = tripleHash(word.charCodeAt(c - 2), word.charCodeAt(c - 1), word.charCodeAt(c));
      blooms[base + (h >>> 5)]! |= 1 << (h & 31);
    }
  }
  return blooms;
}

/** Pass 1, feed order: fold every name into records of word ids (temporary ids, first-seen order). */
function foldRecords(input: readonly HintEntry[]) {
  const n = input.length;
  // About 1.5 distinct words per institution, at most half the slots full: sized once, not grown.
  let capacity = 1 << 10;
  while (capacity < n * 4) capacity *= 2;
  const table = new WordTable(capacity);
  const tokStr = table.words;
  const tokAcademic: number[] = [];
  const recOwnerFirst = new Uint32Array(n + 1);
  const recTokEnd: number[] = [];
  const recToks: number[] = [];
  const prior = new Uint8Array(n);
  /** The record of each institution's default name (English, else first), −1 for none. */
  const defRec = new Int32Array(n).fill(-1);
  for (let e = 0; e < n; e++) {
    const entry = input[e]!;
    const names = entry.names;
    const defaultLang = shownLang(entry, undefined);
    recOwnerFirst[e] = recTokEnd.length;
    let academic = false;
    let langs = 0;
    for (const lang in names) {
      langs++;
      const recStart = recToks.length;
      const name = names[lang]!;
      if (!internLatin(name, table, recToks)) {
        const text = fold(name);
        for (let start = 0; text.length > 0; ) {
          const space = text.indexOf(' ', start);
          recToks.push(table.intern(text, start, space === -1 ? text.length : space));
          if (space === -1) break;
          start = space + 1;
        }
      }
      const end = recToks.length;
      if (end === recStart) continue;
      // The same folded name in another language is one record.
      const same = sameRecord(recOwnerFirst[e]!, recTokEnd, recToks, recStart);
      if (same !== -1) {
        recToks.length = recStart;
        if (lang === defaultLang) defRec[e] = same;
        continue;
      }
      if (lang === defaultLang) defRec[e] = recTokEnd.length;
      while (tokAcademic.length < tokStr.length)
        tokAcademic.push(academicWord(tokStr[tokAcademic.length]!) ? 1 : 0);
      for (let j = recStart; j < end; j++) if (tokAcademic[recToks[j]!] === 1) academic = true;
      recTokEnd.push(end);
    }
    prior[e] = (academic ? 2 : 0) + (langs >= 2 ? 1 : 0);
  }
  recOwnerFirst[n] = recTokEnd.length;

  return { table, recOwnerFirst, recTokEnd, recToks, prior, defRec };
}

/** The record from `first` on whose words are those of `recToks[from…]` (the record being added), or −1. */
function sameRecord(
  first: number,
  recTokEnd: readonly number[],
  recToks: readonly number[],
  from: number,
): number {
  const length = recToks.length - from;
  for (let r = first; r < recTokEnd.length; r++) {
    const a = r === 0 ? 0 : recTokEnd[r - 1]!;
    if (recTokEnd[r]! - a !== length) continue;
    let j = 0;
    while (j < length && recToks[a + j] === recToks[from + j]) j++;
    if (j === length) return r;
  }
  return -1;
}

/**
 * The static rank: higher `prior` first, then fewer words in the default name, then alphabetical
 * by its words (their dictionary ranks, first six words), then feed order. A stable LSD radix sort on word ranks: a few
 * linear passes instead of a string sort of names that mostly start alike ("university of …").
 */
function staticOrder(
  prior: Uint8Array,
  defRec: Int32Array,
  recTokEnd: readonly number[],
  recToks: readonly number[],
  finalId: Uint32Array,
): Uint32Array {
  const n = prior.length;
  const t = finalId.length;
  let order = new Uint32Array(n);
  for (let e = 0; e < n; e++) order[e] = e;
  let next = new Uint32Array(n);
  // Keys: word ranks + 1 (up to t), word counts (up to 255), 3 − prior.
  const count = new Uint32Array(Math.max(t, 255) + 3);
  const keys = new Uint32Array(n);
  const start = new Int32Array(n);
  const length = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    const r = defRec[e]!;
    if (r < 0) continue;
    start[e] = r === 0 ? 0 : recTokEnd[r - 1]!;
    length[e] = recTokEnd[r]! - start[e]!;
  }
  // Positions 5..0 of the name, then its number of words (fewer first: more of it matched), then prior.
  for (let pos = 5; pos >= -2; pos--) {
    let any = false;
    let max = 3;
    for (let e = 0; e < n; e++) {
      const k =
        pos === -2
          ? 3 - prior[e]!
          : pos === -1
            ? Math.min(length[e]!, 255)
            : pos < length[e]!
              ? finalId[recToks[start[e]! + pos]!]! + 1
              : 0;
      keys[e] = k;
      if (k !== 0) any = true;
      if (k > max) max = k;
    }
    if (!any) continue; // every name shorter: nothing to order at this position
    count.fill(0, 0, max + 2);
    for (let i = 0; i < n; i++) count[keys[order[i]!]! + 1]!++;
    for (let k = 1; k <= max + 1; k++) count[k]! += count[k - 1]!;
    for (let i = 0; i < n; i++) {
      const e = order[i]!;
      next[count[keys[e]!]!++] = e;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * Posting lists (CSR over `postStart`): for each dictionary word, the institutions whose names hold
 * it, in static-rank order, once each, with {@link FIRST} / {@link WHOLE} flags merged.
 */
function buildPostings(
  n: number,
  t: number,
  entRec: Uint32Array,
  recTokStart: Uint32Array,
  recTok: Uint32Array,
  postStart: Uint32Array,
): [Uint32Array, Uint8Array, Uint32Array] {
  const last = new Int32Array(t).fill(-1);
  for (let i = 0; i < n; i++) {
    for (let j = recTokStart[entRec[i]!]!, end = recTokStart[entRec[i + 1]!]!; j < end; j++) {
      const w = recTok[j]!;
      if (last[w] !== i) {
        last[w] = i;
        postStart[w + 1]!++;
      }
    }
  }
  for (let w = 0; w < t; w++) postStart[w + 1]! += postStart[w]!;
  const total = postStart[t]!;
  const post = new Uint32Array(total);
  const flag = new Uint8Array(total);
  const fill = postStart.slice(0, t);
  const lastPos = new Int32Array(t);
  last.fill(-1);
  for (let i = 0; i < n; i++) {
    for (let rec = entRec[i]!; rec < entRec[i + 1]!; rec++) {
      const a = recTokStart[rec]!;
      const b = recTokStart[rec + 1]!;
      for (let j = a; j < b; j++) {
        const w = recTok[j]!;
        const f = j === a ? (b - a === 1 ? FIRST | WHOLE : FIRST) : 0;
        if (last[w] === i) {
          flag[lastPos[w]!]! |= f;
        } else {
          last[w] = i;
          const p = fill[w]!++;
          lastPos[w] = p;
          post[p] = i;
          flag[p] = f;
        }
      }
    }
  }
  // Each list: the institutions with a name starting with the word first, both parts in static rank.
  const firstEnd = new Uint32Array(t);
  for (let w = 0; w < t; w++) {
    const a = postStart[w]!;
    const b = postStart[w + 1]!;
    const part = partition(post.subarray(a, b), flag.subarray(a, b), 0, b - a);
    post.set(part.entities, a);
    flag.set(part.flags, a);
    firstEnd[w] = a + part.first;
  }
  return [post, flag, firstEnd];
}

/** Stable partition of (entities, flags)[from, to): {@link FIRST} ones first. */
function partition(entities: Uint32Array, flags: Uint8Array, from: number, to: number): Union {
  let first = 0;
  for (let i = from; i < to; i++) if (flags[i]! & FIRST) first++;
  if (first === 0 || first === to - from) return { entities, flags, first };
  const e = new Uint32Array(to - from);
  const f = new Uint8Array(to - from);
  let x = 0;
  let y = first;
  for (let i = from; i < to; i++) {
    if (flags[i]! & FIRST) {
      e[x] = entities[i]!;
      f[x++] = flags[i]!;
    } else {
      e[y] = entities[i]!;
      f[y++] = flags[i]!;
    }
  }
  return { entities: e, flags: f, first };
}

/** A word short enough to be initials ("tu", "uc", "lmu"). */
function initialsWord(word: string): boolean {
  return word.length >= 2 && word.length <= 4;
}

function binaryHas(sorted: Uint32Array, value: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid;
  }
  return false;
}
