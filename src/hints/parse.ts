import { HintFeedError } from './errors.js';
import type { HintEntry, HintFeedShape, SkippedHintEntry } from './types.js';

/**
 * Feed schemas. Shapes are told apart by their top-level keys: an entityID is an absolute URI (a URL or
 * a URN, so it always holds a `:`), a group of a combined feed is a country code (exactly two letters)
 * or a region name (`africa`, `net`, `org`: lower-case, longer), never with a `:`, so the two can never
 * be confused. A document whose top-level keys mix the two, or whose entityIDs map to names in both
 * the flat and the per-language form, is refused as ambiguous instead of being guessed at.
 *
 * One bad entry (real lists carry bare host names and names with `%20` as ids) is skipped and reported,
 * never allowed to sink the file's other institutions; a document that is not a feed at all (the wrong
 * shape, or not one valid entry) is refused whole.
 */
const ENTITY_ID_RE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;
export const COUNTRY_RE = /^[A-Za-z]{2}$/;
/** A region file or group of the service (`africa`, `net`, `org`): its institutions have no country. */
export const REGION_RE = /^[a-z][a-z0-9-]{2,31}$/;
export const LANG_RE = /^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/;
/** SAML 2.0 caps entityIDs at 1024 characters. */
export const MAX_ENTITY_ID = 1024;
const MAX_NAME = 1024;
/**
 * Skipped entries reported per feed (all are counted in `skippedCount`): a file broken in every entry
 * reports 20 lines, not 65,000, to a log or a cron mail.
 */
export const MAX_REPORTED_SKIPS = 20;
/** Longest key shown in a report of a skipped entry (a feed key can be any length). */
const MAX_SHOWN_KEY = 100;

const NOT_AN_ENTITY_ID = `not an entityID (a URL or URN of at most ${MAX_ENTITY_ID} characters)`;

function entityIdOk(id: string): boolean {
  return id.length <= MAX_ENTITY_ID && ENTITY_ID_RE.test(id);
}

/** A key of a combined feed's top level: a country code or a region name. */
function isGroupKey(key: string): boolean {
  return COUNTRY_RE.test(key) || REGION_RE.test(key);
}

/**
 * A value that can only be a group of a combined feed: an object of objects (institutions by
 * entityID), or an empty object. An entry's names are an object of strings (or a string), so a bare
 * id that looks like a region (`saxion`) next to real entityIDs is read as the bad entry it is.
 */
function isGroupValue(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const values = Object.values(value);
  return values.length === 0 || values.some(isPlainObject);
}

/**
 * A key as shown in a report: at most {@link MAX_SHOWN_KEY} characters, control and bidirectional
 * formatting characters escaped, so a feed cannot forge or hide lines of a log or a terminal.
 */
function shownKey(key: string): string {
  const cut = key.length > MAX_SHOWN_KEY ? `${key.slice(0, MAX_SHOWN_KEY)}…` : key;
  return cut.replace(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu, (c) => {
    const hex = c.codePointAt(0)!.toString(16);
    return hex.length <= 4 ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
  });
}

/** A parsed feed: its shape, its institutions by entityID, and the entries it skipped. @group Hints */
export interface ParsedHintFeed {
  readonly shape: HintFeedShape;
  readonly entries: ReadonlyMap<string, HintEntry>;
  /**
   * Entries left out because they are not valid (an id that is not a URI or URN, names that are not
   * strings, a bad language tag), in feed order: the first 20 of them.
   */
  readonly skipped: readonly SkippedHintEntry[];
  /** How many entries were skipped in all (`skipped` lists at most 20). */
  readonly skippedCount: number;
}

/** Language tags are case-insensitive (BCP 47); `pt_BR` and `pt-BR` are both written `pt-br` here. */
export function normaliseLang(lang: string): string {
  return lang.toLowerCase().replace(/_/g, '-');
}

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(key: string): string {
  return JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key);
}

/**
 * Tell which of the three shapes a parsed JSON document has, without validating it fully.
 * Throws {@link HintFeedError} `feed_invalid_shape` or `feed_ambiguous_shape`.
 *
 * @group Hints
 */
export function detectHintFeedShape(document: unknown): HintFeedShape {
  if (!isPlainObject(document)) {
    throw new HintFeedError(`feed is not a JSON object (got ${kind(document)})`, {
      code: 'feed_invalid_shape',
    });
  }
  let firstGroup: string | undefined;
  let firstEntity: string | undefined;
  let firstOther: string | undefined;
  let strings = 0;
  let objects = 0;
  for (const key in document) {
    const value = document[key];
    if (key.includes(':')) {
      firstEntity ??= key;
      if (typeof value === 'string') strings++;
      else if (isPlainObject(value)) objects++;
    } else if (isGroupKey(key) && isGroupValue(value)) {
      firstGroup ??= key;
    } else {
      // A bad entry (skipped when there are entityIDs beside it) or a bad group (skipped in a combined feed).
      firstOther ??= key;
    }
  }
  if (firstGroup !== undefined && firstEntity !== undefined) {
    throw new HintFeedError(
      `feed mixes countries or regions (${preview(firstGroup)}) and entityIDs (${preview(firstEntity)}) at the top level`,
      { code: 'feed_ambiguous_shape' },
    );
  }
  if (firstGroup !== undefined) return 'combined';
  if (firstEntity === undefined) {
    if (firstOther === undefined)
      throw new HintFeedError('feed lists no institution', { code: 'feed_empty' });
    throw new HintFeedError(
      `feed is not a hint feed: no key is an entityID (URL or URN) or a country or region holding institutions; the first, ${preview(firstOther)}, ${
        isGroupKey(firstOther)
          ? `holds ${kind(document[firstOther])} instead of an object of institutions by entityID`
          : 'is neither an entityID (URL or URN) nor a country code or region name'
      }`,
      { code: 'feed_invalid_shape' },
    );
  }
  if (strings > 0 && objects > 0) {
    throw new HintFeedError(
      `feed mixes flat names (${strings}) and per-language names (${objects}) for its entityIDs`,
      { code: 'feed_ambiguous_shape' },
    );
  }
  return strings > 0 ? 'flat' : 'per-country';
}

function kind(value: unknown): string {
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
}

/** Why a name is not one, or undefined: a string of at most {@link MAX_NAME} characters. */
function nameProblem(name: unknown, lang?: string): string | undefined {
  if (typeof name === 'string' && name.length <= MAX_NAME) return undefined;
  // The message is made only for a bad name: this runs for every name of a feed.
  const of = lang === undefined ? '' : ` in ${preview(lang)}`;
  if (typeof name !== 'string') return `expected a name (string)${of}, got ${kind(name)}`;
  return `name${of} longer than ${MAX_NAME} characters`;
}

/**
 * Names as stored: lower-case tags, names trimmed, blank ones dropped, and a "name" that is the
 * entityID itself dropped too (metadata without a display name: it names nothing, and would only add
 * URL words to the search). A string is the reason the names are not valid (the entry is then skipped).
 */
function cleanNames(names: unknown, entityId: string): Readonly<Record<string, string>> | string {
  if (!isPlainObject(names)) return `expected an object of names by language, got ${kind(names)}`;
  const out: Record<string, string> = {};
  for (const lang in names) {
    const name = names[lang];
    const problem = nameProblem(name, lang);
    if (problem !== undefined) return problem;
    if (!LANG_RE.test(lang)) return `${preview(lang)} is not a language tag`;
    const text = (name as string).trim();
    const tag = normaliseLang(lang);
    if (text && text !== entityId && out[tag] === undefined) out[tag] = text;
  }
  return Object.freeze(out);
}

export function sameNames(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const langs = Object.keys(a);
  return a === b || (langs.length === Object.keys(b).length && langs.every((lang) => a[lang] === b[lang]));
}

/**
 * Detect the shape of a parsed JSON feed document, validate it, and return its institutions.
 * `country` (ISO alpha-2) is given to entries of per-country and flat feeds, which do not name it.
 * Names: blank ones are dropped, language tags are lower-cased. An invalid entry (an id that is not
 * a URI or URN, names that are not strings, a bad language tag; in a combined feed also a group that
 * is not a country or region of institutions) is skipped and listed in `skipped`. Throws
 * {@link HintFeedError} when the document is not a feed: the wrong shape, or not one valid entry.
 *
 * @example
 * ```ts
 * const { shape, entries, skipped } = parseHintFeed(JSON.parse(text), { country: 'NL' });
 * ```
 * @group Hints
 */
export function parseHintFeed(document: unknown, options: { country?: string } = {}): ParsedHintFeed {
  return readEntries(document, options.country, undefined);
}

/**
 * {@link parseHintFeed}, keeping each entry that `previous` (the last list of the same source) held
 * unchanged as that same object: the search index then reuses what it derived from it.
 */
export function readEntries(
  document: unknown,
  givenCountry: string | undefined,
  previous: ReadonlyMap<string, HintEntry> | undefined,
): ParsedHintFeed {
  const make = (entityId: string, names: Readonly<Record<string, string>>, country: string | undefined) => {
    const old = previous?.get(entityId);
    return old !== undefined && old.country === country && sameNames(old.names, names)
      ? old
      : Object.freeze({ entityId, names, country });
  };
  const shape = detectHintFeedShape(document);
  const sourceCountry = givenCountry?.toUpperCase();
  const entries = new Map<string, HintEntry>();
  // The skipped entries: the first MAX_REPORTED_SKIPS, and how many in all.
  const skipped: SkippedHintEntry[] = [];
  let skippedCount = 0;
  const skip = (path: string[], reason: string) => {
    if (skippedCount++ < MAX_REPORTED_SKIPS)
      skipped.push(Object.freeze({ path: Object.freeze(path.map(shownKey)), reason }));
  };
  // The document is checked by the loops that read it (no schema library in this entry point); the
  // path of a skipped entry is made only when there is one.
  const doc = document as Record<string, unknown>;
  const flat = shape === 'flat';
  // The institutions of the document, or of one group of a combined feed (the first key of their path).
  const read = (institutions: Record<string, unknown>, country: string | undefined, group?: string) => {
    for (const id in institutions) {
      const value = institutions[id];
      const problem = entityIdOk(id) ? (flat ? nameProblem(value) : undefined) : NOT_AN_ENTITY_ID;
      const names = problem ?? cleanNames(flat ? { und: value } : value, id);
      if (typeof names === 'string') {
        skip(group === undefined ? [id] : [group, id], names);
        continue;
      }
      const first = entries.get(id);
      // An entityID listed under two groups: the first listing wins for the names (completed by the
      // later one), the first country given wins (a region listing never hides a country).
      entries.set(id, make(id, first ? mergeNames(first.names, names) : names, first?.country ?? country));
    }
  };
  if (shape !== 'combined') read(doc, sourceCountry);
  else {
    for (const group in doc) {
      const institutions = doc[group];
      if (!isGroupKey(group)) {
        skip([group], 'not a country code or region name (a group of a combined feed)');
      } else if (!isPlainObject(institutions)) {
        skip([group], `expected an object of institutions by entityID, got ${kind(institutions)}`);
      } else {
        // A region group (africa, net, org) is not a country: its institutions have none.
        read(institutions, COUNTRY_RE.test(group) ? group.toUpperCase() : undefined, group);
      }
    }
  }
  if (entries.size === 0) {
    const first = skipped[0];
    if (first) {
      throw new HintFeedError(
        `feed lists no valid institution: ${skippedCount} ${skippedCount === 1 ? 'entry' : 'entries'} skipped, the first at ${first.path.map(preview).join(' → ')}: ${first.reason}`,
        { code: 'feed_invalid_shape' },
      );
    }
    throw new HintFeedError('feed lists no institution', { code: 'feed_empty' });
  }
  return { shape, entries, skipped: Object.freeze(skipped), skippedCount };
}

/** `first`'s names, completed by languages only `second` has (both already clean). */
export function mergeNames(
  first: Readonly<Record<string, string>>,
  second: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  // Spread first again: its languages keep their places and names, `second`'s others follow.
  const out = { ...first, ...second, ...first };
  return Object.keys(out).length === Object.keys(first).length ? first : Object.freeze(out);
}
