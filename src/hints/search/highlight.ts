/**
 * Where the query matched in a name, for highlighting: `[start, end)` offsets in the original
 * (unfolded) name, so "zur" in "Universität Zürich" marks "Zür".
 */
import type { HintMatchKind } from '../types.js';
import { foldMapped } from './fold.js';
import { ACRONYM_STOP } from './rank.js';

type Range = readonly [number, number];

/** Whether `a` and `b` are at most one Damerau edit apart (delete, insert, replace, swap neighbours). */
export function oneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * The ranges of `name` that the query `words` (folded) matched with `kind`, or undefined when this
 * name does not hold every word (the match was in another name of the institution).
 */
export function highlight(name: string, words: readonly string[], kind: HintMatchKind): Range[] | undefined {
  const folded = foldMapped(name);
  const text = folded.text;
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) if (i === 0 || text.charCodeAt(i - 1) === 32) starts.push(i);
  const tokenEnd = (s: number) => {
    const space = text.indexOf(' ', s);
    return space === -1 ? text.length : space;
  };
  const spans: [number, number][] = [];
  if (kind === 'acronym') {
    const word = words[0] ?? '';
    for (const skipStop of [false, true]) {
      const picked = starts.filter((s) => !skipStop || !ACRONYM_STOP.has(text.slice(s, tokenEnd(s))));
      if (picked.map((s) => text[s]).join('') === word) {
        for (const s of picked) spans.push([s, s + 1]);
        return toOriginal(spans, folded.from, folded.to);
      }
    }
    return undefined;
  }
  for (const word of words) {
    let span: [number, number] | undefined;
    for (const s of starts) {
      if (text.startsWith(word, s)) {
        span = [s, s + word.length];
        break;
      }
    }
    if (span === undefined && (kind === 'substring' || kind === 'typo')) {
      const at = text.indexOf(word);
      if (at !== -1) span = [at, at + word.length];
    }
    if (span === undefined && kind === 'typo') {
      for (const s of starts) {
        const end = tokenEnd(s);
        const token = text.slice(s, end);
        for (const len of [word.length - 1, word.length, word.length + 1]) {
          if (len >= 1 && len <= token.length && oneEdit(token.slice(0, len), word)) {
            span = [s, s + len];
            break;
          }
        }
        if (span) break;
      }
    }
    if (span === undefined) return undefined;
    spans.push(span);
  }
  return toOriginal(spans, folded.from, folded.to);
}

/** Folded spans → original offsets, sorted and merged. */
function toOriginal(spans: [number, number][], from: Uint32Array, to: Uint32Array): Range[] {
  const out: [number, number][] = spans
    .filter(([a, b]) => b > a)
    .map(([a, b]) => [from[a]!, to[b - 1]!] as [number, number])
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const r of out) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return merged;
}
