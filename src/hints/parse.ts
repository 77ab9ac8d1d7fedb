import { HintFeedError } from './errors.js';
import { normaliseLang } from './normalize.js';
import type { HintEntry, HintFeedShape } from './types.js';

/**
 * Feed schemas. Shapes are told apart by their top-level keys: an entityID is an absolute URI (a URL or
 * a URN, so it always holds a `:`), a group of a combined feed is a country code (exactly two letters)
 * or a region name (`africa`, `net`, `org`: lower-case, longer), never with a `:`, so the two can never
 * be confused. A document whose top-level keys mix the two, or whose entityIDs map to names in both
 * the flat and the per-language form, is refused as ambiguous instead of being guessed at.
 */
const ENTITY_ID_RE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;
const COUNTRY_RE = /^[A-Za-z]{2}$/;
/** A region file or group of the service (`africa`, `net`, `org`): its institutions have no country. */
export const REGION_RE = /^[a-z][a-z0-9-]{2,31}$/;
const LANG_RE = /^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/;
/** SAML 2.0 caps entityIDs at 1024 characters. */
const MAX_ENTITY_ID = 1024;
const MAX_NAME = 1024;

function badKey(path: string[], what: string): HintFeedError {
  return new HintFeedError(`feed has an invalid entry at ${path.map(preview).join(' → ')}: key ${what}`, {
    code: 'feed_invalid_shape',
  });
}

function checkEntityId(id: string, path: string[]): void {
  if (id.length > MAX_ENTITY_ID || !ENTITY_ID_RE.test(id)) {
    throw badKey([...path, id], `not an entityID (URL or URN, at most ${MAX_ENTITY_ID} characters)`);
  }
}

/** A parsed feed: its shape and its institutions by entityID. @group Hints */
export interface ParsedHintFeed {
  readonly shape: HintFeedShape;
  readonly entries: ReadonlyMap<string, HintEntry>;
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
    throw new HintFeedError(
      `feed is not a JSON object (got ${Array.isArray(document) ? 'an array' : document === null ? 'null' : typeof document})`,
      { code: 'feed_invalid_shape' },
    );
  }
  let countries = 0;
  let entities = 0;
  let firstCountry: string | undefined;
  let firstEntity: string | undefined;
  let strings = 0;
  let objects = 0;
  for (const key in document) {
    if (COUNTRY_RE.test(key) || REGION_RE.test(key)) {
      countries++;
      firstCountry ??= key;
    } else if (key.includes(':')) {
      entities++;
      firstEntity ??= key;
      const value = document[key];
      if (typeof value === 'string') strings++;
      else if (isPlainObject(value)) objects++;
    } else {
      throw new HintFeedError(
        `feed key ${preview(key)} is neither an entityID (URL or URN) nor a country code or region name`,
        { code: 'feed_invalid_shape' },
      );
    }
  }
  if (countries > 0 && entities > 0) {
    throw new HintFeedError(
      `feed mixes countries or regions (${preview(firstCountry!)}) and entityIDs (${preview(firstEntity!)}) at the top level`,
      { code: 'feed_ambiguous_shape' },
    );
  }
  if (countries > 0) return 'combined';
  if (entities === 0) throw new HintFeedError('feed lists no institution', { code: 'feed_empty' });
  if (strings > 0 && objects > 0) {
    throw new HintFeedError(
      `feed mixes flat names (${strings}) and per-language names (${objects}) for its entityIDs`,
      { code: 'feed_ambiguous_shape' },
    );
  }
  return strings > 0 ? 'flat' : 'per-country';
}

function badValue(path: string[], what: string): HintFeedError {
  return new HintFeedError(`feed has an invalid entry at ${path.map(preview).join(' → ')}: ${what}`, {
    code: 'feed_invalid_shape',
  });
}

function kind(value: unknown): string {
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
}

/** Where an entry is, for an error message: made only when there is one. */
function where(group: string | undefined, entityId: string, lang?: string): string[] {
  const path = group === undefined ? [entityId] : [group, entityId];
  if (lang !== undefined) path.push(lang);
  return path;
}

/** A name must be a string of at most {@link MAX_NAME} characters. */
function checkName(
  name: unknown,
  group: string | undefined,
  entityId: string,
  lang?: string,
): asserts name is string {
  if (typeof name !== 'string')
    throw badValue(where(group, entityId, lang), `expected a name (string), got ${kind(name)}`);
  if (name.length > MAX_NAME)
    throw badValue(where(group, entityId, lang), `name longer than ${MAX_NAME} characters`);
}

function checkObject(value: unknown, path: string[], what: string): asserts value is Record<string, unknown> {
  if (!isPlainObject(value)) throw badValue(path, `expected ${what}, got ${kind(value)}`);
}

const CLEAN_TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/;

/** True when the first or last character is white space (or the name is empty): it needs trimming. */
function untrimmed(name: string): boolean {
  if (name.length === 0) return true;
  const first = name.charCodeAt(0);
  const last = name.charCodeAt(name.length - 1);
  return (
    first <= 32 ||
    last <= 32 ||
    first === 0xa0 ||
    last === 0xa0 ||
    (first > 0x1000 && /^\s/.test(name)) ||
    (last > 0x1000 && /\s$/.test(name))
  );
}

/**
 * Names as stored: lower-case tags, blank names dropped, and a "name" that is the entityID itself
 * dropped too (metadata without a display name: it names nothing, and would only add URL words to
 * the search). The parsed object is reused when already clean.
 */
function cleanNames(
  names: unknown,
  entityId: string,
  group: string | undefined,
  cleanTags: Set<string>,
): Readonly<Record<string, string>> {
  // The path of an entry is made only for an error message: arrays per name were a good part of
  // what checking a 65,000-entry feed allocated (refresh time, `npm run bench -- hints`).
  if (!isPlainObject(names))
    throw badValue(where(group, entityId), `expected an object of names by language, got ${kind(names)}`);
  let clean = true;
  for (const lang in names) {
    const name = names[lang];
    checkName(name, group, entityId, lang);
    if (!cleanTags.has(lang)) {
      if (!CLEAN_TAG.test(lang)) {
        if (!LANG_RE.test(lang)) throw badKey(where(group, entityId, lang), 'not a language tag');
        clean = false;
        continue;
      }
      cleanTags.add(lang);
    }
    if (untrimmed(name) || name === entityId) clean = false;
  }
  if (clean) return Object.freeze(names as Record<string, string>);
  const out: Record<string, string> = {};
  for (const lang in names) {
    const name = (names[lang] as string).trim();
    const tag = normaliseLang(lang);
    if (name && name !== entityId && out[tag] === undefined) out[tag] = name;
  }
  return Object.freeze(out);
}

function entry(
  entityId: string,
  names: Readonly<Record<string, string>>,
  country: string | undefined,
): HintEntry {
  return Object.freeze({ entityId, names, country });
}

/**
 * Detect the shape of a parsed JSON feed document, validate it, and return its institutions.
 * `country` (ISO alpha-2) is given to entries of per-country and flat feeds, which do not name it.
 * Names: blank ones are dropped, language tags are lower-cased. Throws {@link HintFeedError}.
 *
 * @example
 * ```ts
 * const { shape, entries } = parseHintFeed(JSON.parse(text), { country: 'NL' });
 * ```
 * @group Hints
 */
export function parseHintFeed(document: unknown, options: { country?: string } = {}): ParsedHintFeed {
  const shape = detectHintFeedShape(document);
  const sourceCountry = options.country?.toUpperCase();
  const entries = new Map<string, HintEntry>();
  /** Language tags already seen to be clean (a feed uses a few dozen, on every entry). */
  const cleanTags = new Set<string>();
  // The document is checked by the loops that read it (no schema library): a zod pass over a
  // 65,000-entry feed cost more than JSON.parse itself (figure: `npm run bench -- hints`, refresh).
  const doc = document as Record<string, unknown>;
  if (shape === 'combined') {
    for (const group in doc) {
      // A region group (africa, net, org) is not a country: its institutions have none.
      const country = COUNTRY_RE.test(group) ? group.toUpperCase() : undefined;
      const institutions = doc[group];
      checkObject(institutions, [group], 'an object of institutions by entityID');
      for (const id in institutions) {
        checkEntityId(id, [group]);
        const previous = entries.get(id);
        // An entityID listed under two groups: the first listing wins for the names (completed by the
        // later one), the first country given wins (a region listing never hides a country).
        if (previous) {
          const names = cleanNames(institutions[id], id, group, cleanTags);
          entries.set(id, entry(id, mergeNames(previous.names, names), previous.country ?? country));
        } else {
          entries.set(id, entry(id, cleanNames(institutions[id], id, group, cleanTags), country));
        }
      }
    }
  } else if (shape === 'per-country') {
    for (const id in doc) {
      checkEntityId(id, []);
      entries.set(id, entry(id, cleanNames(doc[id], id, undefined, cleanTags), sourceCountry));
    }
  } else {
    for (const id in doc) {
      checkEntityId(id, []);
      const name = doc[id];
      checkName(name, undefined, id);
      entries.set(id, entry(id, cleanNames({ und: name }, id, undefined, cleanTags), sourceCountry));
    }
  }
  if (entries.size === 0) throw new HintFeedError('feed lists no institution', { code: 'feed_empty' });
  return { shape, entries };
}

/** `first`'s names, completed by languages only `second` has (both already clean). */
export function mergeNames(
  first: Readonly<Record<string, string>>,
  second: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const extra = second;
  let missing = false;
  for (const lang in extra) {
    if (first[lang] === undefined) {
      missing = true;
      break;
    }
  }
  if (!missing) return first;
  const out: Record<string, string> = { ...first };
  for (const lang in extra) if (out[lang] === undefined) out[lang] = extra[lang]!;
  return Object.freeze(out);
}
