/**
 * Where the query matched in a name, for highlighting: `[start, end)` offsets in the original
 * (unfolded) name, so "zur" in "Universität Zürich" marks "Zür".
 */
import type { HintMatchKind } from '../types.js';
import { foldedFrom, foldedTo, foldInto } from './fold.js';
import { ACRONYM_STOP } from './rank.js';

type Range = readonly [number, number];

/** Whether `a` and `b` are at most one Damerau edit apart (delete, insert, replace, swap neighbours). */
export function oneEdit(a: string, b: string): boolean {
  return oneEditAt(a, 0, a.length, b);
}

/** {@link oneEdit} for the `length` characters of `text` from `start`, without cutting them out. */
function oneEditAt(text: string, start: number, length: number, b: string): boolean {
  const lb = b.length;
  if (Math.abs(length - lb) > 1) return false;
  let i = 0;
  while (i < length && i < lb && text.charCodeAt(start + i) === b.charCodeAt(i)) i++;
  if (i === length && i === lb) return true;
  if (length === lb) {
    if (sameRest(text, start, length, i + 1, b, i + 1)) return true;
    return (
      text.charCodeAt(start + i) === b.charCodeAt(i + 1) &&
      text.charCodeAt(start + i + 1) === b.charCodeAt(i) &&
      sameRest(text, start, length, i + 2, b, i + 2)
    );
  }
  return length > lb
    ? sameRest(text, start, length, i + 1, b, i)
    : sameRest(text, start, length, i, b, i + 1);
}

/** Whether `text`'s characters from `start + a` to `start + length` are `b`'s from `bi` to its end. */
function sameRest(text: string, start: number, length: number, a: number, b: string, bi: number): boolean {
  if (length - a !== b.length - bi) return false;
  for (; a < length; a++, bi++) if (text.charCodeAt(start + a) !== b.charCodeAt(bi)) return false;
  return true;
}

/** End of the folded word starting at `s` of `text`. */
function wordEnd(text: string, s: number): number {
  const space = text.indexOf(' ', s);
  return space === -1 ? text.length : space;
}

/**
 * The ranges of `name` that the query `words` (folded) matched with `kind`, or undefined when this
 * name does not hold every word (the match was in another name of the institution).
 *
 * It runs for every result shown, often for several names of each: it walks the folded text's words
 * in place instead of collecting them (an array, closures and filtered copies per name were half of
 * a one-letter query's allocation, and so of its young-generation collections: search p99).
 */
export function highlight(name: string, words: readonly string[], kind: HintMatchKind): Range[] | undefined {
  const text = foldInto(name);
  const spans: number[] = [];
  if (kind === 'acronym') {
    const word = words[0] ?? '';
    for (const skipStop of [false, true]) {
      spans.length = 0;
      let k = 0;
      for (let s = 0; s < text.length; s = wordEnd(text, s) + 1) {
        if (skipStop && ACRONYM_STOP.has(text.slice(s, wordEnd(text, s)))) continue;
        if (k >= word.length || text.charCodeAt(s) !== word.charCodeAt(k)) {
          k = -1;
          break;
        }
        k++;
        spans.push(s, s + 1);
      }
      if (k === word.length) return toOriginal(spans);
    }
    return undefined;
  }
  for (const word of words) {
    let at = -1;
    let end = -1;
    for (let s = 0; s < text.length; s = wordEnd(text, s) + 1) {
      if (text.startsWith(word, s)) {
        at = s;
        end = s + word.length;
        break;
      }
    }
    if (at === -1 && (kind === 'substring' || kind === 'typo')) {
      at = text.indexOf(word);
      end = at + word.length;
    }
    if (at === -1 && kind === 'typo') {
      for (let s = 0; s < text.length && at === -1; s = wordEnd(text, s) + 1) {
        const tokenLength = wordEnd(text, s) - s;
        for (let len = word.length - 1; len <= word.length + 1; len++) {
          if (len >= 1 && len <= tokenLength && oneEditAt(text, s, len, word)) {
            at = s;
            end = s + len;
            break;
          }
        }
      }
    }
    if (at === -1) return undefined;
    spans.push(at, end);
  }
  return toOriginal(spans);
}

/** Folded spans (flat start, end pairs of the last {@link foldInto}) → original offsets, sorted and merged. */
function toOriginal(spans: number[]): Range[] {
  const out: [number, number][] = [];
  for (let i = 0; i < spans.length; i += 2) {
    if (spans[i + 1]! > spans[i]!) out.push([foldedFrom(spans[i]!), foldedTo(spans[i + 1]! - 1)]);
  }
  if (out.length > 1) out.sort((x, y) => x[0] - y[0]);
  let m = 0;
  for (const r of out) {
    const last = m > 0 ? out[m - 1]! : undefined;
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out[m++] = r;
  }
  out.length = m;
  return out;
}
