import type { HintFeedError } from './errors.js';

/**
 * One institution usable as `idpHint`.
 *
 * @group Hints
 */
export interface HintEntry {
  /** The SAML entityID, the value sent as `aarc_idp_hint`. */
  readonly entityId: string;
  /**
   * Display names by language tag, lower-case (`en`, `nl`, `pt-br`, `en-za`). A flat feed's names have
   * the tag `und` (undetermined). A "name" equal to the entityID (metadata without a display name) is
   * not a name and is left out, so this may be empty.
   */
  readonly names: Readonly<Record<string, string>>;
  /** ISO 3166 alpha-2 country code, upper-case, when the feed or the source says it. */
  readonly country: string | undefined;
}

/** The three feed shapes {@link parseHintFeed} recognises. @group Hints */
export type HintFeedShape = 'per-country' | 'combined' | 'flat';

/**
 * A feed URL, optionally with the country its entries belong to (useful for per-country and flat
 * feeds, which do not name their country; a combined feed's own country keys take precedence), or
 * the region it covers (`africa`, `net`, `org`: its entries have no country). Without either, a URL
 * ending in `/<cc>.json` gives its entries the country `cc` (the service's file naming).
 *
 * @group Hints
 */
export type HintSource =
  | string
  | URL
  | {
      url: string | URL;
      /** ISO 3166 alpha-2 code, any case. */
      country?: string;
      /** A lower-case region name of 3 to 32 letters, digits or `-` (the service's `africa.json`, `net.json`, `org.json`). */
      region?: string;
    };

/** What happened to one source during a refresh. @group Hints */
export interface SourceRefreshResult {
  /** The source URL, redacted. */
  readonly url: string;
  /** `updated`: a new body was parsed; `not-modified`: 304 or byte-identical body; `failed`: see `error`. */
  readonly status: 'updated' | 'not-modified' | 'failed';
  readonly error?: HintFeedError;
}

/**
 * The outcome of {@link HintFeed.refresh}. It never rejects: failures are reported here, and the last
 * good list keeps serving.
 *
 * @group Hints
 */
export interface RefreshResult {
  /**
   * `updated`: a changed list was swapped in. `not-modified`: every source answered and nothing
   * changed. `failed`: at least one source failed and nothing changed (the last good list is served).
   */
  readonly status: 'updated' | 'not-modified' | 'failed';
  /** entityIDs that appeared. */
  readonly added: readonly string[];
  /** entityIDs that disappeared. */
  readonly removed: readonly string[];
  /** entityIDs whose display names changed (same entityID). */
  readonly renamed: readonly string[];
  /** Number of institutions served after the refresh. */
  readonly total: number;
  /**
   * Set whenever something went wrong, even with status `updated`: the error of the first failed
   * source (each source's own error is in `sources`), or `cache_write_failed`.
   */
  readonly error?: HintFeedError;
  /**
   * Set when the `cacheFile` could not be written (`cache_write_failed`): the list in memory was
   * updated, the file was not. Also in `error` when no source failed.
   */
  readonly cacheError?: HintFeedError;
  /** Per-source outcome, in the order of `sources`. */
  readonly sources: readonly SourceRefreshResult[];
}

/** Options of {@link HintFeed.search}. @group Hints */
export interface HintSearchOptions {
  /**
   * Language of the picker: names in this language are matched and returned; institutions without
   * a name in it are matched and shown by their fallback name (English, else their first name).
   * Default: match names in every language, return English (else first) names.
   */
  lang?: string;
  /** Only institutions of this country (ISO alpha-2, any case). Default: all. */
  country?: string;
  /** Most results returned. Default 10, at most 1000. */
  limit?: number;
}

/** One search hit. @group Hints */
export interface HintSearchResult {
  readonly entityId: string;
  /** Display name in the requested language (with fallback), or the entityID when the feed has no name. */
  readonly name: string;
  readonly country: string | undefined;
  /**
   * How the query matched, in rank order: `prefix` (the name starts with it), `word` (a word of the
   * name starts with it), `substring` (anywhere), `words` (every word of a multi-word query starts a word).
   */
  readonly match: 'prefix' | 'word' | 'substring' | 'words';
}
