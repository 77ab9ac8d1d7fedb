/**
 * Building the index: folded names, the sorted dictionary with its posting lists, and the keys. A
 * generator that yields every few dozen institutions: the feed runs it in slices between the
 * shop's other work, because a build in one go at 6,500 institutions blocks the event loop for
 * longer than the bench's goal for the "longest event-loop stall" allows.
 */
import type { HintEntry } from '../types.js';
import { fold, foldGerman, hasUmlaut } from './fold.js';
import { domainKeys, entityHost, hostLabels } from './host.js';
import { ACRONYM_STOP, academicWord } from './rank.js';

/**
 * One name of an institution, folded, and its German spelling when that differs word for word
 * ("müller" → "mueller"). Its words are not kept apart: a search splits the few names it looks at,
 * and a refresh builds fewer objects for the collector to copy while the shop is serving.
 */
export interface Name {
  readonly text: string;
  readonly german: string | undefined;
  /** Its words and German spellings, each between spaces: a word it starts is one `includes(' ' + word)`. */
  readonly spaced: string;
}

/** The words of a name, and of its German spelling (the same number of words). */
export function wordsOf(name: Name): { words: string[]; alt: string[] | undefined } {
  return { words: name.text.split(' '), alt: name.german?.split(' ') };
}

/** Institutions in static-rank order (an institution's number is its place), their distinct folded names, and keys. */
export interface Built {
  readonly entries: HintEntry[];
  readonly derived: Derived[];
  readonly byId: Map<string, number>;
  /** The institutions of a country, and those named in a language (tag and primary subtag), in static rank. */
  readonly byCountry: Map<string, Set<number>>;
  readonly byLang: Map<string, Set<number>>;
  /** Every word and German spelling, sorted (by UTF-16 code units, as `<` compares). */
  readonly words: string[];
  /**
   * The posting lists of all words, end to end, each in static rank: word `w`'s institutions where it
   * starts a name are `ids[from[w]]` up to `ids[split[w]]`, where it is a later word up to
   * `ids[from[w + 1]]`. Three typed arrays, not two arrays per word: each small object made during a
   * refresh is copied by the young-generation collector in a pause of the shop's event loop.
   */
  readonly ids: Int32Array;
  readonly from: Int32Array;
  readonly split: Int32Array;
  /** The dictionary joined by newlines, searched for substrings. */
  readonly joined: string;
  readonly exact: Lists;
  readonly acronyms: Lists;
  readonly labels: Lists;
  readonly domains: Lists;
}

/** The name shown for `entry` in `lang`: in it, else in its primary subtag, else English, else the first. */
export function pickName(entry: HintEntry, lang: string | undefined): string | undefined {
  const names = entry.names;
  const asked = lang === undefined ? undefined : (names[lang] ?? names[lang.split('-')[0]!]);
  return asked ?? names.en ?? Object.values(names)[0];
}

/** "universiteit van amsterdam" → ["uva"]; "massachusetts institute of technology" → ["miot", "mit"]. */
export function acronymsOf(words: readonly string[]): string[] {
  if (words.length < 2 || words.length > 12) return [];
  const all = words.map((w) => w[0]).join('');
  let short = '';
  for (const w of words) if (!ACRONYM_STOP.has(w)) short += w[0];
  return short.length >= 2 && short.length < words.length ? [all, short] : [all];
}

/** The first of the words in a row whose initials are `word`, stop words between them skipped; else -1. */
export function initialsFrom(word: string, words: readonly string[]): number {
  for (let x = 0; x < words.length; x++) {
    let k = 0;
    for (let y = x; y < words.length && k < word.length; y++) {
      if (words[y]![0] === word[k]) k++;
      else if (k === 0 || !ACRONYM_STOP.has(words[y]!)) break;
    }
    if (k === word.length) return x;
  }
  return -1;
}

/**
 * Institutions by key (an exact name, an acronym, a host label, a domain), in static rank. A key of one
 * institution (most) keeps its number, not a list of one: hundreds of thousands of small arrays made
 * during a refresh are what the collector stops the shop's event loop for (the bench's stall figure).
 */
export type Lists = Map<string, number | number[]>;

/** Appends institution `e` to the list under `key` (once: institutions come in static-rank order). */
function file(map: Lists, key: string, e: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, e);
  else if (typeof list === 'number') {
    if (list !== e) map.set(key, [list, e]);
  } else if (list.at(-1) !== e) list.push(e);
}

function member(map: Map<string, Set<number>>, key: string, e: number): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([e]));
  else set.add(e);
}

/**
 * What the index takes from one institution, kept with it: a refresh derives only the institutions
 * that changed (a feed changes by a few names, and deriving them all again made the most of the
 * garbage that the collector stops the shop's event loop for: the bench's refresh stall).
 */
export interface Derived {
  readonly names: Name[];
  /** 2 for a name of higher education, 1 more for names in two languages or more. */
  readonly prior: number;
  /** The shown name, folded, and its number of words. */
  readonly shown: string;
  readonly wordCount: number;
  readonly host: string | undefined;
  /** Host labels, domains, acronyms, words that start a name, its other words: each kind ends at `ends`. */
  readonly keys: string[];
  readonly ends: readonly [labels: number, domains: number, acronyms: number, firsts: number];
}

function derive(entry: HintEntry): Derived {
  const names: Name[] = [];
  for (const lang in entry.names) {
    const original = entry.names[lang]!;
    const text = fold(original);
    if (text === '' || names.some((n) => n.text === text)) continue;
    const german = hasUmlaut(original) ? foldGerman(original) : text;
    const differ = german !== text && german.split(' ').length === text.split(' ').length;
    const words = differ ? [...new Set(`${text} ${german}`.split(' '))] : [text];
    // One flat string (a join), not a concatenation the engine keeps in pieces until a search reads it.
    names.push({ text, german: differ ? german : undefined, spaced: ['', ...words, ''].join(' ') });
  }
  const host = entityHost(entry.entityId);
  const labels = host === undefined ? [] : hostLabels(host);
  const keys = host === undefined ? [] : [...labels, ...domainKeys(host)];
  const domains = keys.length;
  const [firsts, rests] = [new Set<string>(), new Set<string>()];
  for (const name of names) {
    const { words, alt } = wordsOf(name);
    keys.push(...acronymsOf(words));
    for (const [k, word] of words.entries()) (k === 0 ? firsts : rests).add(word).add(alt?.[k] ?? word);
  }
  const acronyms = keys.length;
  keys.push(...firsts, ...[...rests].filter((word) => !firsts.has(word)));
  const text = fold(pickName(entry, undefined) ?? '');
  const academic = names.some((n) => n.text.split(' ').some(academicWord));
  return {
    // Copies of exactly their length: they outlive the build, and lists grown by push keep room to spare.
    names: names.slice(),
    prior: (academic ? 2 : 0) + (Object.keys(entry.names).length >= 2 ? 1 : 0),
    shown: text,
    wordCount: text === '' ? 0 : text.split(' ').length,
    host,
    keys: keys.slice(),
    ends: [labels.length, domains, acronyms, acronyms + firsts.size],
  };
}

/** How long a slice of a build keeps the event loop before it lets other work run, in ms. */
const SLICE_MS = 2;

/**
 * Hands the event loop back for one turn: `setImmediate` where the runtime has it (it lets waiting I/O
 * run without the 1 ms a zero timeout takes on Node, and a test's fake clock does not hold it), else a
 * zero timeout.
 */
export const nextTurn = (): Promise<void> =>
  new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );

/** Runs `steps` from a fresh turn of the event loop, handing it back every {@link SLICE_MS}. */
export async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  await nextTurn();
  let start = performance.now();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    if (performance.now() - start >= SLICE_MS) {
      await nextTurn();
      start = performance.now();
    }
  }
}

/** Runs `steps` in one go. */
export function drain<T>(steps: Generator<void, T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

/**
 * The steps of a build; each `yield` is a point where the caller may let other work run. An
 * institution with the entityID and the names object it had in `previous` is taken from there (a
 * refresh keeps an entry that did not change, its names too, as the same object).
 */
export function* build(input: readonly HintEntry[], previous?: Built): Generator<void, Built> {
  const derived: Derived[] = [];
  for (const entry of input) {
    if ((derived.length & 63) === 0) yield;
    const old = previous?.byId.get(entry.entityId);
    const same = old !== undefined && previous!.entries[old]!.names === entry.names;
    derived.push(same ? previous!.derived[old]! : derive(entry));
  }

  // The static rank: higher prior first, then fewer words in the shown name (more of it matched),
  // then alphabetical, then feed order (the sort is stable). Folded names are words of letters and
  // digits joined by single spaces, so comparing them as strings compares them word by word.
  const order = input
    .map((_, e) => e)
    .sort(
      (a, b) =>
        derived[b]!.prior - derived[a]!.prior ||
        derived[a]!.wordCount - derived[b]!.wordCount ||
        (derived[a]!.shown < derived[b]!.shown ? -1 : derived[a]!.shown > derived[b]!.shown ? 1 : 0),
    );

  yield;
  // Pass 2, static-rank order: postings and keys.
  const built = {
    entries: [] as HintEntry[],
    derived: [] as Derived[],
    byId: new Map<string, number>(),
    byCountry: new Map<string, Set<number>>(),
    byLang: new Map<string, Set<number>>(),
    exact: new Map() as Lists,
    acronyms: new Map() as Lists,
    labels: new Map() as Lists,
    domains: new Map() as Lists,
  };
  // Each word's number in order of first use, and every posting as a pair (word, institution),
  // the institution negated (bitwise) where the word is not the first of a name.
  const wordIds = new Map<string, number>();
  const dictionary: string[] = [];
  const pairWords: number[] = [];
  const pairIds: number[] = [];
  /** Per word (by number): how many institutions it starts a name of, and how many it is a later word of. */
  const firsts: number[] = [];
  const rests: number[] = [];
  for (let i = 0; i < order.length; i++) {
    if ((i & 63) === 0) yield;
    const entry = input[order[i]!]!;
    const it = derived[order[i]!]!;
    built.entries.push(entry);
    built.derived.push(it);
    built.byId.set(entry.entityId, i);
    if (entry.country !== undefined) member(built.byCountry, entry.country, i);
    for (const lang in entry.names) {
      member(built.byLang, lang, i);
      if (lang.includes('-')) member(built.byLang, lang.split('-')[0]!, i);
    }
    for (const name of it.names) file(built.exact, name.text, i);
    const { keys, ends } = it;
    for (let k = 0; k < keys.length; k++) {
      const word = keys[k]!;
      if (k < ends[2]) {
        file(k < ends[0] ? built.labels : k < ends[1] ? built.domains : built.acronyms, word, i);
        continue;
      }
      let id = wordIds.get(word);
      if (id === undefined) {
        id = dictionary.push(word) - 1;
        wordIds.set(word, id);
        firsts[id] = rests[id] = 0;
      }
      pairWords.push(id);
      pairIds.push(k < ends[3] ? i : ~i);
      (k < ends[3] ? firsts : rests)[id]!++;
    }
  }

  // The default sort compares by UTF-16 code units, as `<` does.
  const words = dictionary.sort();
  yield;
  // A counting sort of the pairs by word: they come in static rank, and stay so within each list.
  // `next` says where the next posting of a word (by number) goes: its first part, then its rest.
  const from = new Int32Array(words.length + 1);
  const split = new Int32Array(words.length);
  const nextFirst = new Int32Array(words.length);
  const nextRest = new Int32Array(words.length);
  for (let w = 0; w < words.length; w++) {
    const id = wordIds.get(words[w]!)!;
    split[w] = nextRest[id] = from[w]! + firsts[id]!;
    from[w + 1] = split[w]! + rests[id]!;
    nextFirst[id] = from[w]!;
  }
  const ids = new Int32Array(pairIds.length);
  for (let p = 0; p < pairIds.length; p++) {
    const e = pairIds[p]!;
    if (e >= 0) ids[nextFirst[pairWords[p]!]!++] = e;
    else ids[nextRest[pairWords[p]!]!++] = ~e;
  }
  return { ...built, words, ids, from, split, joined: `\n${words.join('\n')}\n` };
}
