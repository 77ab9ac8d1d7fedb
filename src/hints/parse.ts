import { z } from 'zod';
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

export const EntityIdSchema = z
  .string()
  .max(MAX_ENTITY_ID)
  .regex(ENTITY_ID_RE, 'not an entityID (URL or URN)');
export const CountryCodeSchema = z.string().regex(COUNTRY_RE, 'not a two-letter country code');
const GroupSchema = z.union([CountryCodeSchema, z.string().regex(REGION_RE, 'not a region name')]);
export const LangSchema = z.string().regex(LANG_RE, 'not a language tag');
const NameSchema = z.string().max(MAX_NAME);
const NamesSchema = z.record(LangSchema, NameSchema);

// What parsing runs: the same structure with plain string keys. zod's per-key schemas dominate the
// cost on a 65,000-entry feed, so keys are checked by the loop that reads the entries anyway, with
// the same patterns and the same kind of message.
const FastNamesSchema = z.record(z.string(), NameSchema);
const FastPerCountrySchema = z.record(z.string(), FastNamesSchema);
const FastCombinedSchema = z.record(z.string(), FastPerCountrySchema);
const FastFlatSchema = z.record(z.string(), NameSchema);

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

/** `{ entityID: { lang: name } }`: one country's institutions. */
export const PerCountryFeedSchema = z.record(EntityIdSchema, NamesSchema);
/** `{ country or region: { entityID: { lang: name } } }`: every country (and region) in one document. */
export const CombinedFeedSchema = z.record(GroupSchema, PerCountryFeedSchema);
/** `{ entityID: name }`: names without a language. */
export const FlatFeedSchema = z.record(EntityIdSchema, NameSchema);

/** A parsed feed: its shape and its institutions by entityID. @group Hints */
export interface ParsedHintFeed {
  readonly shape: HintFeedShape;
  readonly entries: ReadonlyMap<string, HintEntry>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
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

function schemaError(error: z.ZodError): HintFeedError {
  const issue = error.issues[0];
  const path = issue?.path.map((p) => (typeof p === 'string' ? preview(p) : String(p))).join(' → ') ?? '';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
  // A bad record key carries the key schema's own message one level down.
  const inner = issue?.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  const what = inner ? `key ${inner}` : issue?.message;
  return new HintFeedError(`feed has an invalid entry at ${path || 'the top level'}: ${what}${more}`, {
    code: 'feed_invalid_shape',
    cause: error,
  });
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
  names: Record<string, string>,
  entityId: string,
  path: string[],
): Readonly<Record<string, string>> {
  let clean = true;
  for (const lang in names) {
    const name = names[lang]!;
    if (!CLEAN_TAG.test(lang)) {
      if (!LANG_RE.test(lang)) throw badKey([...path, lang], 'not a language tag');
      clean = false;
    } else if (untrimmed(name) || name === entityId) clean = false;
  }
  if (clean) return Object.freeze(names);
  const out: Record<string, string> = {};
  for (const lang in names) {
    const name = names[lang]!.trim();
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
  if (shape === 'combined') {
    const result = FastCombinedSchema.safeParse(document);
    if (!result.success) throw schemaError(result.error);
    for (const group in result.data) {
      // A region group (africa, net, org) is not a country: its institutions have none.
      const country = COUNTRY_RE.test(group) ? group.toUpperCase() : undefined;
      const institutions = result.data[group]!;
      for (const id in institutions) {
        checkEntityId(id, [group]);
        const previous = entries.get(id);
        // An entityID listed under two groups: the first listing wins for the names (completed by the
        // later one), the first country given wins (a region listing never hides a country).
        if (previous) {
          const names = cleanNames(institutions[id]!, id, [group, id]);
          entries.set(id, entry(id, mergeNames(previous.names, names), previous.country ?? country));
        } else {
          entries.set(id, entry(id, cleanNames(institutions[id]!, id, [group, id]), country));
        }
      }
    }
  } else if (shape === 'per-country') {
    const result = FastPerCountrySchema.safeParse(document);
    if (!result.success) throw schemaError(result.error);
    for (const id in result.data) {
      checkEntityId(id, []);
      entries.set(id, entry(id, cleanNames(result.data[id]!, id, [id]), sourceCountry));
    }
  } else {
    const result = FastFlatSchema.safeParse(document);
    if (!result.success) throw schemaError(result.error);
    for (const id in result.data) {
      checkEntityId(id, []);
      entries.set(id, entry(id, cleanNames({ und: result.data[id]! }, id, [id]), sourceCountry));
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
