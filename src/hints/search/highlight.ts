/**
 * Where the query matched in a name, for highlighting: `[start, end)` offsets in the original
 * (unfolded) name, so "zur" in "Universität Zürich" marks "Zür" and "muen" in "München" marks "Mün".
 */
import type { HintMatchKind } from '../types.js';
import { initialsFrom } from './build.js';
import { foldMapped, hasUmlaut, type Mapped } from './fold.js';

type Range = readonly [number, number];

type Folded = Mapped & { readonly words: { word: string; at: number }[] };

/** {@link foldMapped}, with the words of the folded text and where each starts. */
function folded(name: string, german = false): Folded {
  const mapped = foldMapped(name, german);
  return { ...mapped, words: [...mapped.text.matchAll(/[^ ]+/g)].map((m) => ({ word: m[0], at: m.index })) };
}

/**
 * The length of a prefix of `candidate` one edit (Damerau) from `word`: 0 when there is none, or when
 * `candidate` starts with `word` itself. Compares in place: it runs for thousands of dictionary words.
 */
export function typoOf(candidate: string, word: string): number {
  const n = word.length;
  let i = 0;
  while (i < n && candidate.charCodeAt(i) === word.charCodeAt(i)) i++;
  if (i === n) return 0;
  const rest = word.slice(i + 1);
  if (candidate.length >= n && candidate.startsWith(rest, i + 1)) return n; // one letter replaced
  if (swappedAt(candidate, word, i)) return n; // two letters swapped
  if (n > 1 && candidate.length >= n - 1 && candidate.startsWith(rest, i)) return n - 1; // one letter too many
  return candidate.startsWith(word.slice(i), i + 1) ? n + 1 : 0; // one letter missing
}

/** Whether `candidate` starts with `word` but for two neighbouring letters swapped ("wien" for "wein"). */
export function swapOf(candidate: string, word: string): boolean {
  let i = 0;
  while (i < word.length && candidate.charCodeAt(i) === word.charCodeAt(i)) i++;
  return i < word.length - 1 && swappedAt(candidate, word, i);
}

/** Whether `candidate` has `word`'s letters `i` and `i + 1` swapped, and the rest of `word` after them. */
function swappedAt(candidate: string, word: string, i: number): boolean {
  return (
    candidate[i] === word[i + 1] &&
    candidate[i + 1] === word[i] &&
    candidate.startsWith(word.slice(i + 2), i + 2)
  );
}

/** Where in `text` the query word `word` matched with `kind`: `[start, end)` of the folded text. */
function find(mapped: Folded, word: string, kind: HintMatchKind): [number, number][] | undefined {
  const { text, words } = mapped;
  const start = words.find((w) => w.word.startsWith(word));
  if (start !== undefined) return [[start.at, start.at + word.length]];
  if (kind === 'substring' || kind === 'typo') {
    const at = text.indexOf(word);
    if (at !== -1) return [[at, at + word.length]];
  }
  if (kind === 'typo') {
    const typo = words.find((w) => typoOf(w.word, word) > 0);
    if (typo !== undefined) return [[typo.at, typo.at + typoOf(typo.word, word)]];
  }
  return undefined;
}

/** The first letters of the words that `word` is the initials of (see {@link initialsFrom}). */
function initialsRun(mapped: Folded, word: string): [number, number][] | undefined {
  const { words } = mapped;
  const list = words.map((w) => w.word);
  let y = initialsFrom(word, list);
  if (y === -1) return undefined;
  // From there on, the words skipped are those that do not start with the next letter.
  const spans: [number, number][] = [];
  for (; spans.length < word.length; y++)
    if (words[y]!.word[0] === word[spans.length]) spans.push([words[y]!.at, words[y]!.at + 1]);
  return spans;
}

/** Folded spans of `mapped` → original offsets; undefined when there are none. */
function original(mapped: Mapped | undefined, spans: [number, number][] | undefined): Range[] | undefined {
  if (mapped === undefined || spans === undefined) return undefined;
  return spans.map(([a, b]) => [mapped.from[a]!, mapped.to[b - 1]!]);
}

/**
 * The ranges of `name` that the query `words` (folded) matched with `kind`, and whether the name
 * holds every word (when it does not, the match was in another name of the institution, or across
 * its names). The German spelling of umlauts is tried for words the plain fold does not hold.
 */
export function highlight(
  name: string,
  words: readonly string[],
  kind: HintMatchKind,
): { ranges: Range[]; all: boolean } {
  const plain = folded(name);
  const german = hasUmlaut(name) ? folded(name, true) : undefined;
  const ranges: Range[] = [];
  let all = true;
  for (const word of words) {
    const hit =
      kind === 'acronym' && words.length === 1
        ? original(plain, initialsRun(plain, word))
        : (original(plain, find(plain, word, kind)) ??
          original(german, german && find(german, word, kind)) ??
          (words.length > 1 ? original(plain, initialsRun(plain, word)) : undefined));
    if (hit === undefined) all = false;
    else ranges.push(...hit);
  }
  // Sorted, and merged where they touch.
  const merged: [number, number][] = [];
  for (const r of ranges.sort((x, y) => x[0] - y[0])) {
    const last = merged.at(-1);
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return { ranges: merged, all };
}
