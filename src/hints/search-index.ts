import { normaliseLang, normaliseText } from './normalize.js';
import type { HintEntry, HintSearchOptions, HintSearchResult } from './types.js';

const NL = 10;
const SPACE = 32;
export const DEFAULT_SEARCH_LIMIT = 10;
const BLOCK_SHIFT = 4;
const BLOCK = 1 << BLOCK_SHIFT;
const BLOOM_WORDS = 64;

/** An 11-bit hash of three characters. */
function tripleHash(a: number, b: number, c: number): number {
  return Math.imul((a << 20) ^ (b << 10) ^ c, 0x9e3779b1) >>> 21;
}
export const MAX_SEARCH_LIMIT = 1000;

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

/**
 * The search index, built once per swap. Every distinct normalised name of every institution is a
 * record; the records are sorted and joined into one string `"\n" + r0 + "\n" + r1 + … + "\n"` so a
 * query is answered by the engine's native substring search instead of a loop over thousands of
 * strings: whole-name prefixes by binary search, word prefixes and substrings by `indexOf`, all in
 * alphabetical order for free. Typed arrays keep the per-record data compact.
 */
export class SearchIndex {
  readonly #entries: HintEntry[];
  readonly #text: string;
  /**
   * A 2048-bit Bloom filter of the character triples of every block of {@link BLOCK} records: a scan
   * for a query of three or more characters only reads the blocks that may hold all of its triples.
   */
  readonly #blooms: Uint32Array;
  readonly #starts: Uint32Array;
  readonly #recEntity: Uint32Array;
  readonly #recLangStart: Uint32Array;
  readonly #recLangs: Uint32Array;
  readonly #entityCountry: Uint16Array;
  /** Language ids of each institution's names (CSR), and whether a record holds its default (en, else first) name. */
  readonly #entityLangStart: Uint32Array;
  readonly #entityLangs: Uint32Array;
  readonly #recDefault: Uint8Array;
  /** Records of each country, alphabetical (CSR: records of country c are byCountry[countryStart[c]..countryStart[c+1]]). */
  readonly #countryStart: Uint32Array;
  readonly #byCountry: Uint32Array;
  readonly #langIds = new Map<string, number>();
  readonly #countryIds = new Map<string, number>();
  #seen: Uint32Array;
  #epoch = 0;

  constructor(entries: Iterable<HintEntry>) {
    this.#entries = Array.from(entries);
    const n = this.#entries.length;
    this.#seen = new Uint32Array(n);
    this.#entityCountry = new Uint16Array(n);
    // Records in parallel arrays: an institution's names that normalise to the same text share one.
    // A record's first language is in `firstLang`; the rare further ones (another language whose
    // name normalises to the same text) in `moreLangs`, so no record needs an array of its own.
    const texts: string[] = [];
    const owner: number[] = [];
    const firstLang: number[] = [];
    const isDefault: number[] = [];
    const moreLangs = new Map<number, number[]>();
    let langTotal = 0;
    const entityLangs: number[] = [];
    this.#entityLangStart = new Uint32Array(n + 1);
    for (let e = 0; e < n; e++) {
      const entry = this.#entries[e]!;
      if (entry.country !== undefined) {
        let id = this.#countryIds.get(entry.country);
        if (id === undefined) {
          id = this.#countryIds.size + 1;
          this.#countryIds.set(entry.country, id);
        }
        this.#entityCountry[e] = id;
      }
      const first = texts.length;
      const names = entry.names;
      const defaultLang = shownLang(entry, undefined);
      this.#entityLangStart[e] = entityLangs.length;
      for (const lang in names) {
        let langId = this.#langIds.get(lang);
        if (langId === undefined) {
          langId = this.#langIds.size;
          this.#langIds.set(lang, langId);
        }
        entityLangs.push(langId);
        const text = normaliseText(names[lang]!);
        if (!text) continue;
        langTotal++;
        let r = first;
        while (r < texts.length && texts[r] !== text) r++;
        if (r < texts.length) {
          const more = moreLangs.get(r);
          if (more === undefined) moreLangs.set(r, [langId]);
          else more.push(langId);
          if (lang === defaultLang) isDefault[r] = 1;
        } else {
          texts.push(text);
          owner.push(e);
          firstLang.push(langId);
          isDefault.push(lang === defaultLang ? 1 : 0);
        }
      }
    }
    this.#entityLangStart[n] = entityLangs.length;
    this.#entityLangs = Uint32Array.from(entityLangs);
    const count = texts.length;
    const order = sortRecords(texts);
    this.#starts = new Uint32Array(count + 1);
    this.#recEntity = new Uint32Array(count);
    this.#recLangStart = new Uint32Array(count + 1);
    this.#recDefault = new Uint8Array(count);
    this.#recLangs = new Uint32Array(langTotal);
    const blocks = Math.ceil(count / BLOCK);
    const blooms = new Uint32Array(blocks * BLOOM_WORDS);
    const parts: string[] = new Array(count);
    let offset = 1;
    let langOffset = 0;
    for (let i = 0; i < count; i++) {
      const r = order[i]!;
      const text = texts[r]!;
      parts[i] = text;
      this.#starts[i] = offset;
      offset += text.length + 1;
      this.#recEntity[i] = owner[r]!;
      this.#recDefault[i] = isDefault[r]!;
      this.#recLangStart[i] = langOffset;
      this.#recLangs[langOffset++] = firstLang[r]!;
      const more = moreLangs.size === 0 ? undefined : moreLangs.get(r);
      if (more !== undefined) for (const l of more) this.#recLangs[langOffset++] = l;
      // The record's character triples into its block's Bloom filter (records are short, flat
      // strings: cheaper to read than the joined text).
      const base = (i >>> BLOCK_SHIFT) * BLOOM_WORDS;
      for (let k = 2; k < text.length; k++) {
        const h = tripleHash(text.charCodeAt(k - 2), text.charCodeAt(k - 1), text.charCodeAt(k));
        blooms[base + (h >>> 5)]! |= 1 << (h & 31);
      }
    }
    this.#blooms = blooms;
    this.#starts[count] = offset;
    this.#recLangStart[count] = langOffset;
    const countries = this.#countryIds.size + 1;
    this.#countryStart = new Uint32Array(countries + 1);
    for (let i = 0; i < count; i++) this.#countryStart[this.#entityCountry[this.#recEntity[i]!]! + 1]!++;
    for (let c = 0; c < countries; c++) this.#countryStart[c + 1]! += this.#countryStart[c]!;
    this.#byCountry = new Uint32Array(count);
    const fill = this.#countryStart.slice(0, countries);
    for (let i = 0; i < count; i++) this.#byCountry[fill[this.#entityCountry[this.#recEntity[i]!]!]!++] = i;
    this.#text = `\n${parts.join('\n')}\n`;
  }

  /** Number of records (distinct normalised names). */
  get records(): number {
    return this.#recEntity.length;
  }

  search(query: string, options: HintSearchOptions = {}): HintSearchResult[] {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const q = normaliseText(query);
    if (!q || limit <= 0) return [];
    const lang = options.lang === undefined ? undefined : normaliseLang(options.lang);
    const langId = lang === undefined ? undefined : this.#langIds.get(lang);
    const dash = lang === undefined ? -1 : lang.indexOf('-');
    const primaryId = lang !== undefined && dash > 0 ? this.#langIds.get(lang.slice(0, dash)) : undefined;
    let countryId: number | undefined;
    if (options.country !== undefined) {
      countryId = this.#countryIds.get(options.country.toUpperCase());
      if (countryId === undefined) return [];
    }
    // The scratch array is shared by searches, which are synchronous; two epochs per search: `mark`
    // = already in the result (prefix/word), `mark + 1` = a substring candidate.
    if (this.#epoch >= 0xfffffff0) {
      this.#seen.fill(0);
      this.#epoch = 0;
    }
    this.#epoch += 2;
    const mark = this.#epoch;
    const seen = this.#seen;
    const text = this.#text;
    const starts = this.#starts;
    const recEntity = this.#recEntity;
    const count = recEntity.length;

    const qualifies = (r: number): boolean => {
      const e = recEntity[r]!;
      if (countryId !== undefined && this.#entityCountry[e] !== countryId) return false;
      if (lang === undefined) return true;
      // With a language, an institution is matched by the name it is shown with in that language
      // (see shownLang): that language, else its primary subtag, else the default (en, else first).
      if (langId !== undefined) {
        if (this.#recHas(r, langId)) return true;
        if (this.#entityHas(e, langId)) return false;
      }
      if (primaryId !== undefined) {
        if (this.#recHas(r, primaryId)) return true;
        if (this.#entityHas(e, primaryId)) return false;
      }
      return this.#recDefault[r] === 1;
    };

    const out: HintSearchResult[] = [];
    const push = (e: number, match: HintSearchResult['match']) => {
      const entry = this.#entries[e]!;
      out.push({
        entityId: entry.entityId,
        name: pickName(entry, lang) ?? entry.entityId,
        country: entry.country,
        match,
      });
    };

    if (countryId !== undefined) {
      this.#searchCountry(countryId, q, limit, mark, qualifies, push);
      return out;
    }

    // 1. Whole-name prefix: a binary search to the first record >= q, then forward while it matches.
    for (let r = this.#lowerBound(q); r < count && text.startsWith(q, starts[r]!); r++) {
      const e = recEntity[r]!;
      if (seen[e] !== mark && qualifies(r)) {
        seen[e] = mark;
        push(e, 'prefix');
        if (out.length >= limit) return out;
      }
    }

    // 2./3. Word prefixes (preceded by a space) and other substrings, in one left-to-right scan. Once
    // `limit` substring candidates are held, only word prefixes can still make the cut.
    const words: number[] = [];
    const subs: number[] = [];
    let subsFull = false;
    const find = this.#finder(q);
    for (let pos = find(1); pos !== -1; pos = find(pos + 1)) {
      const prev = text.charCodeAt(pos - 1);
      if (prev === NL || (subsFull && prev !== SPACE)) continue;
      const r = this.#recordAt(pos);
      const e = recEntity[r]!;
      if (prev === SPACE) {
        if (seen[e] !== mark && qualifies(r)) {
          seen[e] = mark;
          words.push(e);
          if (out.length + words.length >= limit) break;
        }
      } else if (seen[e] !== mark && seen[e] !== mark + 1 && qualifies(r)) {
        seen[e] = mark + 1;
        subs.push(e);
        subsFull = subs.length >= limit;
      }
    }
    for (const e of words) push(e, 'word');
    for (const e of subs) {
      if (out.length >= limit) return out;
      if (seen[e] === mark + 1) {
        seen[e] = mark;
        push(e, 'substring');
      }
    }
    if (out.length >= limit) return out.slice(0, limit);

    // 4. A multi-word query whose words each start a word of the name, in any order ("amsterdam univ").
    const qWords = q.split(' ');
    if (qWords.length > 1) {
      const longest = qWords.reduce((a, b) => (b.length > a.length ? b : a));
      const others = qWords.filter((w) => w !== longest);
      // Records where the longest word starts a word, in record (alphabetical) order.
      const candidates: number[] = [];
      const findLongest = this.#finder(longest);
      for (let p = findLongest(1); p !== -1; p = findLongest(p + 1)) {
        const prev = text.charCodeAt(p - 1);
        if (prev === NL || prev === SPACE) candidates.push(this.#recordAt(p));
      }
      candidates.sort((a, b) => a - b);
      for (const r of candidates) {
        if (out.length >= limit) break;
        const e = recEntity[r]!;
        if (seen[e] === mark || !qualifies(r)) continue;
        const rec = ` ${text.slice(starts[r]!, starts[r + 1]! - 1)}`;
        if (others.every((w) => rec.includes(` ${w}`))) {
          seen[e] = mark;
          push(e, 'words');
        }
      }
    }
    return out;
  }

  /**
   * With a country filter, walk only that country's records (alphabetical) and rank each by where
   * the query occurs in it: cheaper than scanning every country's text for a selective filter.
   */
  #searchCountry(
    countryId: number,
    q: string,
    limit: number,
    mark: number,
    qualifies: (r: number) => boolean,
    push: (e: number, match: HintSearchResult['match']) => void,
  ): void {
    const tiers: number[][] = [[], [], [], []];
    const best = new Map<number, number>();
    const qWords = q.split(' ');
    const spaced = ` ${q}`;
    for (let i = this.#countryStart[countryId]!, end = this.#countryStart[countryId + 1]!; i < end; i++) {
      const r = this.#byCountry[i]!;
      const rec = this.#text.slice(this.#starts[r]!, this.#starts[r + 1]! - 1);
      let tier: number;
      if (rec.startsWith(q)) tier = 0;
      else if (rec.includes(spaced)) tier = 1;
      else if (rec.includes(q)) tier = 2;
      else if (qWords.length > 1 && qWords.every((w) => rec.startsWith(w) || rec.includes(` ${w}`))) tier = 3;
      else continue;
      if (tier > 0 && tiers[0]!.length >= limit) continue;
      if (!qualifies(r)) continue;
      const e = this.#recEntity[r]!;
      const seenTier = best.get(e);
      if (seenTier !== undefined && seenTier <= tier) continue;
      best.set(e, tier);
      tiers[tier]!.push(e);
    }
    const kinds = ['prefix', 'word', 'substring', 'words'] as const;
    let n = 0;
    for (let t = 0; t < 4 && n < limit; t++) {
      for (const e of tiers[t]!) {
        if (n >= limit) break;
        if (best.get(e) !== t || this.#seen[e] === mark) continue;
        this.#seen[e] = mark;
        push(e, kinds[t]!);
        n++;
      }
    }
  }

  /**
   * A function returning the next position >= `from` where `q` occurs. For three characters or more,
   * only blocks whose Bloom filter holds every character triple of `q` are searched, so a query that
   * occurs in few names reads a few kilobytes instead of the whole text.
   */
  #finder(q: string): (from: number) => number {
    const text = this.#text;
    if (q.length >= 3) {
      const bits: number[] = [];
      for (let i = 2; i < q.length; i++) {
        const h = tripleHash(q.charCodeAt(i - 2), q.charCodeAt(i - 1), q.charCodeAt(i));
        if (!bits.includes(h)) bits.push(h);
      }
      const blooms = this.#blooms;
      const starts = this.#starts;
      const count = this.#recEntity.length;
      const blocks = Math.ceil(count / BLOCK);
      // An occurrence never spans two records, so it lies within one block: search block by block.
      return (from) => {
        if (from >= text.length) return -1;
        for (let b = this.#recordAt(from) >>> BLOCK_SHIFT; b < blocks; b++) {
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
          const end = starts[Math.min((b + 1) * BLOCK, count)]!;
          const at = text.slice(start, end).indexOf(q, Math.max(0, from - start));
          if (at !== -1) return start + at;
        }
        return -1;
      };
    }
    return (from) => text.indexOf(q, from);
  }

  #recHas(r: number, langId: number): boolean {
    for (let i = this.#recLangStart[r]!, end = this.#recLangStart[r + 1]!; i < end; i++) {
      if (this.#recLangs[i] === langId) return true;
    }
    return false;
  }

  #entityHas(e: number, langId: number): boolean {
    for (let i = this.#entityLangStart[e]!, end = this.#entityLangStart[e + 1]!; i < end; i++) {
      if (this.#entityLangs[i] === langId) return true;
    }
    return false;
  }

  /** First record whose text is >= q (records end with "\n", which sorts before every normalised char). */
  #lowerBound(q: string): number {
    let lo = 0;
    let hi = this.#recEntity.length;
    const text = this.#text;
    const starts = this.#starts;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = starts[mid]!;
      let cmp = 0;
      for (let k = 0; k < q.length; k++) {
        const diff = text.charCodeAt(s + k) - q.charCodeAt(k);
        if (diff !== 0) {
          cmp = diff;
          break;
        }
      }
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The record holding text position `pos`. */
  #recordAt(pos: number): number {
    const starts = this.#starts;
    let lo = 0;
    let hi = this.#recEntity.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/**
 * The record order: by text, then by record number. A numeric sort of the typed array of keys
 * "first characters × 2^bits + record number" is native and fast; only runs that share those first
 * characters are then sorted with a string comparator. A character outside ASCII packs as 127 and
 * ends the key, which keeps key order consistent with string order.
 */
function sortRecords(texts: readonly string[]): Uint32Array {
  const count = texts.length;
  const bits = Math.max(1, Math.ceil(Math.log2(count + 1)));
  const scale = 2 ** bits;
  const chars = Math.floor((52 - bits) / 7);
  const keys = new Float64Array(count);
  for (let r = 0; r < count; r++) {
    const t = texts[r]!;
    let key = 0;
    let k = 0;
    for (; k < chars && k < t.length; k++) {
      const c = t.charCodeAt(k);
      if (c >= 127) {
        key = key * 128 + 127;
        k++;
        break;
      }
      key = key * 128 + c;
    }
    for (; k < chars; k++) key *= 128;
    keys[r] = key * scale + r;
  }
  keys.sort();
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = keys[i]! % scale;
  const compare = (a: number, b: number) => {
    const ta = texts[a]!;
    const tb = texts[b]!;
    return ta < tb ? -1 : ta > tb ? 1 : a - b;
  };
  for (let i = 0; i < count; ) {
    const prefix = Math.floor(keys[i]! / scale);
    let j = i + 1;
    while (j < count && Math.floor(keys[j]! / scale) === prefix) j++;
    if (j - i > 1) order.subarray(i, j).sort(compare);
    i = j;
  }
  return order;
}
