/** Text normalisation shared by the search index and queries: case-, accent- and punctuation-insensitive. */

const NON_ALNUM = /[^\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
// Letters that Unicode decomposition leaves alone but a reader treats as a plain letter (or two).
const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'n',
};
const FOLD_RE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'g');

/** The general (slow) path: lower-case, NFKD, strip marks, fold, separators to one space. */
function normaliseSlow(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(FOLD_RE, (c) => FOLDS[c] ?? c)
    .replace(NON_ALNUM, ' ')
    .trim();
}

/**
 * Latin fast path: for every code point below U+0250 (Basic Latin to Latin Extended-B) the folded
 * ASCII it becomes, computed once with the slow path so both agree; `' '` for a separator, and
 * `undefined` when the result is not ASCII (the whole text then takes the slow path).
 */
export const LATIN_LIMIT = 0x250;
const latinTable: (string | undefined)[] = [];
for (let c = 0; c < LATIN_LIMIT; c++) {
  const folded = normaliseSlow(`a${String.fromCharCode(c)}a`);
  const middle = folded.slice(1, -1);
  // "a a" → separator; "aa" → removed (nothing); ASCII letters/digits → themselves.
  latinTable[c] =
    folded === 'a a'
      ? ' '
      : /^[a-z0-9]*$/.test(middle) && folded.startsWith('a') && folded.endsWith('a')
        ? middle
        : undefined;
}
export const LATIN: readonly (string | undefined)[] = latinTable;

let buffer = Buffer.allocUnsafe(256);
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point: all of ASCII.
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_UNCLEAN = /[^a-z0-9 ]|^ | $| {2}/;
const NON_ALNUM_ASCII = /[^a-z0-9]+/g;

/**
 * Lower-case, strip accents (NFKD + combining marks, plus ß→ss, ø→o, ł→l …), turn every run of
 * characters that are not letters or digits into one space, and trim. "Universität Zürich (UZH)" →
 * "universitat zurich uzh". Latin text (the vast majority of names) takes a table-driven path.
 */
export function normaliseText(text: string): string {
  if (ASCII.test(text)) {
    const lower = text.toLowerCase();
    return ASCII_UNCLEAN.test(lower) ? lower.replace(NON_ALNUM_ASCII, ' ').trim() : lower;
  }
  const n = text.length;
  if (buffer.length < n * 2 + 2) buffer = Buffer.allocUnsafe(n * 2 + 2);
  const out = buffer;
  let len = 0;
  let gap = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      let ch = c;
      if (c >= 65 && c <= 90) ch = c + 32;
      else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
        gap = true;
        continue;
      }
      if (gap) {
        if (len > 0) out[len++] = 32;
        gap = false;
      }
      out[len++] = ch;
      continue;
    }
    if (c >= LATIN_LIMIT) return normaliseSlow(text);
    const piece = latinTable[c];
    if (piece === undefined) return normaliseSlow(text);
    if (piece === ' ') {
      gap = true;
      continue;
    }
    if (piece.length === 0) continue;
    if (len + piece.length + 1 > out.length) return normaliseSlow(text);
    if (gap) {
      if (len > 0) out[len++] = 32;
      gap = false;
    }
    for (let k = 0; k < piece.length; k++) out[len++] = piece.charCodeAt(k);
  }
  return out.toString('latin1', 0, len);
}

/** Language tags are case-insensitive (BCP 47); `pt_BR` and `pt-BR` are both written `pt-br` here. */
export function normaliseLang(lang: string): string {
  return lang.toLowerCase().replace(/_/g, '-');
}
