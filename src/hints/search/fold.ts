/**
 * Folding for search: both the names and the query go through the same function, so "Zürich",
 * "ZURICH" and "zurich" meet, as do "Łódź"/"lodz", "Straße"/"strasse", "Ærø"/"aero", "İstanbul"/"istanbul".
 * The table-driven fast path lives in `../normalize.ts` (shared with feed parsing); this file adds the
 * position map that highlighting needs.
 */
import { LATIN, LATIN_LIMIT, normaliseText } from '../normalize.js';

export { normaliseLang } from '../normalize.js';

/** Lower-case, strip accents, fold special letters (ß→ss, æ→ae, ø→o, ł→l, đ→d, ı→i, œ→oe, þ→th …), one space between words. */
export const fold: (text: string) => string = normaliseText;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;

let scratchText = new Uint16Array(256);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** The bytes of {@link scratchText} (made again when it grows). */
let scratchBytes = Buffer.from(scratchText.buffer);
let scratchFrom = new Uint32Array(256);
let scratchTo = new Uint32Array(256);

/** Grows the scratch arrays to hold `size` folded characters, keeping what they hold. */
function grow(size: number): void {
  const text = new Uint16Array(size);
  text.set(scratchText);
  scratchText = text;
  const from = new Uint32Array(size);
  from.set(scratchFrom);
  scratchFrom = from;
  const to = new Uint32Array(size);
  to.set(scratchTo);
  scratchTo = to;
}

/** Where folded character `i` of the last {@link foldInto} came from: its start in the original. */
export function foldedFrom(i: number): number {
  return scratchFrom[i]!;
}

/** Where folded character `i` of the last {@link foldInto} came from: its end in the original. */
export function foldedTo(i: number): number {
  return scratchTo[i]!;
}

/**
 * {@link fold} one character at a time, keeping where each folded character came from (read with
 * {@link foldedFrom} / {@link foldedTo} until the next call), so a match in the folded text can be
 * highlighted in the original ("zur" in "Universität Zürich" → "Zür"). Only run on the few names
 * shown, never on the whole feed.
 */
export function foldInto(original: string): string {
  // Scratch arrays and no copies: the number arrays, their copies (each copy of more than 64 bytes
  // is a typed array with its own off-heap memory) and the string built one character at a time
  // were most of what a query allocated (search p99: young-generation collections).
  const cap = original.length * 3 + 1;
  if (scratchText.length < cap) {
    scratchText = new Uint16Array(cap);
    scratchFrom = new Uint32Array(cap);
    scratchTo = new Uint32Array(cap);
  }
  let len = 0;
  let gap = false;
  for (let i = 0; i < original.length; ) {
    const c = original.charCodeAt(i);
    if (c < 128) {
      // ASCII, most characters of most names: what the general path below does, without its two
      // regular expressions, a string and a fold per character (search latency: this runs for every
      // result shown, and was most of a one-letter query's time).
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) {
        if (gap && len > 0) {
          scratchText[len] = 32;
          scratchFrom[len] = i;
          scratchTo[len++] = i;
        }
        gap = false;
        scratchText[len] = c >= 65 && c <= 90 ? c + 32 : c;
        scratchFrom[len] = i;
        scratchTo[len++] = i + 1;
      } else {
        gap = true;
      }
      i++;
      continue;
    }
    const latin = c < LATIN_LIMIT ? LATIN[c] : undefined;
    if (latin !== undefined && latin.length > 0) {
      // Latin letters with accents, from the table `fold` uses: no regular expression, no string per
      // character (most non-ASCII characters of most names).
      if (latin === ' ') {
        gap = true;
      } else {
        len = append(latin, len, gap, i, i + 1, original.length - i);
        gap = false;
      }
      i++;
      continue;
    }
    const cp = original.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const end = i + ch.length;
    if (MARK.test(ch)) {
      // A combining mark belongs to the letter before it.
      if (len > 0 && !gap) scratchTo[len - 1] = end;
    } else if (LETTER_OR_DIGIT.test(ch)) {
      const piece = fold(ch);
      // A compatibility character can fold to many letters (U+FDFA to 18).
      if (piece.length > 0) {
        len = append(piece, len, gap, i, end, original.length - i);
        gap = false;
      }
    } else {
      gap = true;
    }
    i = end;
  }
  // One string straight from the scratch memory (UTF-16 in the machine's byte order): no argument list
  // of numbers per name, as `fromCharCode.apply` makes.
  if (LITTLE_ENDIAN) {
    if (scratchBytes.buffer !== scratchText.buffer) scratchBytes = Buffer.from(scratchText.buffer);
    return scratchBytes.toString('utf16le', 0, len * 2);
  }
  let out = '';
  for (let k = 0; k < len; k += 1024)
    out += String.fromCharCode.apply(
      null,
      scratchText.subarray(k, Math.min(len, k + 1024)) as unknown as number[],
    );
  return out;
}

/**
 * Writes `piece`, folded from the original's `[start, end)`, into the scratch memory at `len` (after
 * a space when `gap`), growing it when needed (`rest`: characters of the original still to read).
 * Returns the new length.
 */
function append(piece: string, len: number, gap: boolean, start: number, end: number, rest: number): number {
  if (len + piece.length + 1 > scratchText.length) grow(len + piece.length + 1 + rest);
  if (gap && len > 0) {
    scratchText[len] = 32;
    scratchFrom[len] = start;
    scratchTo[len++] = start;
  }
  for (let k = 0; k < piece.length; k++) {
    scratchText[len] = piece.charCodeAt(k);
    scratchFrom[len] = start;
    scratchTo[len++] = end;
  }
  return len;
}
