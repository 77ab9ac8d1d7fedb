/**
 * Folding for search: both the names and the query go through the same function, so "Zürich",
 * "ZURICH" and "zurich" meet, as do "Łódź"/"lodz", "Straße"/"strasse", "Ærø"/"aero", "İstanbul"/"istanbul".
 * The table-driven fast path lives in `../normalize.ts` (shared with feed parsing); this file adds the
 * position map that highlighting needs.
 */
import { normaliseText } from '../normalize.js';

export { normaliseLang } from '../normalize.js';

/** Lower-case, strip accents, fold special letters (ß→ss, æ→ae, ø→o, ł→l, đ→d, ı→i, œ→oe, þ→th …), one space between words. */
export const fold: (text: string) => string = normaliseText;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;

/** A folded text with, for each of its characters, the `[start, end)` it came from in the original. */
export interface FoldedText {
  readonly text: string;
  readonly from: Uint32Array;
  readonly to: Uint32Array;
}

/**
 * {@link fold} one character at a time, keeping where each folded character came from, so a match in
 * the folded text can be highlighted in the original ("zur" in "Universität Zürich" → "Zür").
 * Only run on the few names shown, never on the whole feed.
 */
export function foldMapped(original: string): FoldedText {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let gap = false;
  for (let i = 0; i < original.length; ) {
    const c = original.charCodeAt(i);
    if (c < 128) {
      // ASCII, most characters of most names: what the general path below does, without its two
      // regular expressions, a string and a fold per character (search latency: this runs for every
      // result shown, and was most of a one-letter query's time).
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) {
        if (gap && text.length > 0) {
          text += ' ';
          from.push(i);
          to.push(i);
        }
        gap = false;
        text += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
        from.push(i);
        to.push(i + 1);
      } else {
        gap = true;
      }
      i++;
      continue;
    }
    const cp = original.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const end = i + ch.length;
    if (MARK.test(ch)) {
      // A combining mark belongs to the letter before it.
      if (to.length > 0 && !gap) to[to.length - 1] = end;
    } else if (LETTER_OR_DIGIT.test(ch)) {
      const piece = fold(ch);
      if (piece.length > 0) {
        if (gap && text.length > 0) {
          text += ' ';
          from.push(i);
          to.push(i);
        }
        gap = false;
        for (let k = 0; k < piece.length; k++) {
          text += piece[k];
          from.push(i);
          to.push(end);
        }
      }
    } else {
      gap = true;
    }
    i = end;
  }
  return { text, from: Uint32Array.from(from), to: Uint32Array.from(to) };
}
