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

/**
 * Lower-case, strip accents (NFKD + combining marks, plus ß→ss, ø→o, ł→l …), turn every run of
 * characters that are not letters or digits into one space, and trim. "Universität Zürich (UZH)" →
 * "universitat zurich uzh".
 */
export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(FOLD_RE, (c) => FOLDS[c] ?? c)
    .replace(NON_ALNUM, ' ')
    .trim();
}

/** Language tags are case-insensitive (BCP 47); `pt_BR` and `pt-BR` are both written `pt-br` here. */
export function normaliseLang(lang: string): string {
  return lang.toLowerCase().replace(/_/g, '-');
}
