/**
 * Which language speaks to a shopper: the merchant's choice, else the browser's (`Accept-Language` on
 * the server, `navigator.languages` in the picker), else English. Web APIs only: the picker bundles it.
 */

// biome-ignore format: the list on one line
/**
 * The languages of the service's own pages, in which the SDK has a catalog (`nb`, Norwegian Bokmål,
 * also answers to `no`).
 *
 * @group Languages
 */
export const LANGUAGES = ['af', 'cs', 'da', 'de', 'el', 'en', 'es', 'es-419', 'et', 'fr', 'hu', 'it', 'lt', 'nl', 'nb', 'pt', 'ru', 'sv'] as const;

/** A language the SDK has a catalog for. @group Languages */
export type Language = (typeof LANGUAGES)[number];

const TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8}){0,4}$/;
/** Regions whose Spanish is Latin American (CLDR gives them the parent locale es-419). */
const SPANISH_419 = /^(?:419|ar|bo|br|bz|cl|co|cr|cu|do|ec|gt|hn|mx|ni|pa|pe|pr|py|sv|us|uy|ve)$/;

/**
 * The language of `available` (lower-case tags) that serves `tag`: the tag itself, then Latin
 * American Spanish for its regions, Norwegian Bokmål for `no` and `nn`, then the primary language
 * (`de-AT` → `de`). `undefined` for a malformed tag or a language without a catalog.
 */
export function matchLanguage(tag: string, available: ReadonlySet<string>): string | undefined {
  const t = tag.trim().toLowerCase().replaceAll('_', '-');
  if (t.length > 35 || !TAG.test(t)) return undefined;
  if (available.has(t)) return t;
  const [primary = '', ...rest] = t.split('-');
  if (primary === 'es' && available.has('es-419') && rest.some((s) => SPANISH_419.test(s))) return 'es-419';
  const language = primary === 'no' || primary === 'nn' ? 'nb' : primary;
  return available.has(language) ? language : undefined;
}

/**
 * The best language of an `Accept-Language` header that `available` has (highest q-value; the
 * header's order among equals), or `undefined`. Reads at most the first 1 024 characters and 32
 * entries, so a hostile header costs nothing; a malformed entry is skipped.
 */
export function fromAcceptLanguage(
  header: string | null | undefined,
  available: ReadonlySet<string>,
): string | undefined {
  if (typeof header !== 'string') return undefined;
  let best: string | undefined;
  let bestQ = 0;
  for (const entry of header.slice(0, 1024).split(',', 32)) {
    const [tag = '', ...params] = entry.split(';');
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(param);
      q = m ? Number(m[1]) : -1;
    }
    if (q <= bestQ) continue;
    const match = matchLanguage(tag, available);
    if (match !== undefined) [best, bestQ] = [match, q];
  }
  return best;
}
