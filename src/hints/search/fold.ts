/**
 * Folding for search: the names and the query go through the same function, so "Zürich", "ZURICH"
 * and "zurich" meet, as do "Łódź"/"lodz", "Straße"/"strasse", "Ærø"/"aero", "İstanbul"/"istanbul".
 * The German spelling of umlauts ("Muenchen" for "München") is a second fold of the same name, which
 * the index keeps beside the first for the words that differ.
 */

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

/**
 * Lower-case, strip accents (NFKD + combining marks, plus ß→ss, ø→o, ł→l …), turn every run of
 * characters that are not letters or digits into one space, and trim. "Universität Zürich (UZH)" →
 * "universitat zurich uzh".
 */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(FOLD_RE, (c) => FOLDS[c] ?? c)
    .replace(NON_ALNUM, ' ')
    .trim();
}

const UMLAUT: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'ae', Ö: 'oe', Ü: 'ue' };
const UMLAUT_RE = /[äöüÄÖÜ]|[aouAOU]\u0308/;
const DIAERESIS = 0x308;
const MARK = /^\p{M}$/u;

/** Whether `name` has an umlaut that German also writes as two letters. */
export function hasUmlaut(name: string): boolean {
  return UMLAUT_RE.test(name);
}

/** {@link fold} with ä/ö/ü written ae/oe/ue, as German does without umlauts ("München" → "muenchen"). */
export function foldGerman(name: string): string {
  return fold(name.normalize('NFC').replace(/[äöüÄÖÜ]/g, (c) => UMLAUT[c]!));
}

/** A folded text and, for each of its characters, the `[from, to)` of the original it came from. */
export type Mapped = {
  readonly text: string;
  readonly from: readonly number[];
  readonly to: readonly number[];
};

/** What one character becomes: folded letters, `' '` for a separator, `''` when dropped (soft hyphen). */
function piece(ch: string): string {
  const folded = fold(`a${ch}a`);
  return folded === 'a a' ? ' ' : folded.slice(1, -1);
}

/**
 * {@link fold} (or {@link foldGerman}) keeping where each folded character came from, so that a
 * match in the folded text can be highlighted in the original ("zur" in "Universität Zürich" →
 * "Zür"). Only run on the few names shown, never on the whole list.
 */
export function foldMapped(original: string, german = false): Mapped {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let gap = false;
  for (let i = 0; i < original.length; ) {
    const ch = String.fromCodePoint(original.codePointAt(i)!);
    const end = i + ch.length;
    if (MARK.test(ch)) {
      // A combining mark belongs to the letter before it ("u" + U+0308 is "ü").
      if (text.length > 0 && !gap) {
        to[to.length - 1] = end;
        if (german && ch.charCodeAt(0) === DIAERESIS && /[aou]$/.test(text)) {
          text += 'e';
          from.push(from[from.length - 1]!);
          to.push(end);
        }
      }
    } else {
      const p = german && UMLAUT[ch] !== undefined ? UMLAUT[ch]! : piece(ch);
      if (p === ' ') {
        gap = true;
      } else if (p.length > 0) {
        if (gap && text.length > 0) {
          text += ' ';
          from.push(i);
          to.push(i);
        }
        gap = false;
        text += p;
        for (let k = 0; k < p.length; k++) {
          from.push(i);
          to.push(end);
        }
      }
    }
    i = end;
  }
  return { text, from, to };
}
