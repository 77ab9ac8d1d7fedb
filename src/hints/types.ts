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
      country?: string | undefined;
      /** A lower-case region name of 3 to 32 letters, digits or `-` (the service's `africa.json`, `net.json`, `org.json`). */
      region?: string | undefined;
    };

/**
 * An entry of a feed that was left out because it is not valid (the rest of the file is used).
 *
 * @group Hints
 */
export interface SkippedHintEntry {
  /**
   * Where it is: its key (`["Saxion"]`), under its group in a combined feed (`["NL", "Saxion"]`), or a
   * group's key alone when the whole group was left out (`["North America"]`). Each key is shown as
   * the feed wrote it, cut at 100 characters, control and formatting characters escaped (`\u000a`).
   */
  readonly path: readonly string[];
  /** Why, such as `not an entityID (a URL or URN of at most 1024 characters)`. Never a name's text. */
  readonly reason: string;
}

/** What happened to one source during a refresh. @group Hints */
export interface SourceRefreshResult {
  /** The source URL, redacted. */
  readonly url: string;
  /** `updated`: a new body was parsed; `not-modified`: 304 or byte-identical body; `failed`: see `error`. */
  readonly status: 'updated' | 'not-modified' | 'failed';
  readonly error?: HintFeedError;
  /**
   * Entries of the body parsed in this refresh that were left out, in feed order: at most 20 (see
   * `skippedCount`). Empty when the body was not parsed (`not-modified`, `failed`): a skip is reported
   * once, by the refresh that read the body.
   */
  readonly skipped: readonly SkippedHintEntry[];
  /** How many entries were left out in all; `skipped` lists the first 20. */
  readonly skippedCount: number;
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
   * The shopper's language (BCP 47, any case, `pt_BR` accepted): each result is shown by its name in
   * this language (else its primary subtag, else English, else its first name), and institutions that
   * have a name in it are raised within their match kind. Names in every language are always matched.
   * Default: none (English, else first, names shown; nothing raised).
   */
  lang?: string | undefined;
  /**
   * The shopper's country (ISO 3166 alpha-2, any case): its institutions are raised within their match
   * kind; others are still found. Default: none.
   */
  country?: string | undefined;
  /**
   * entityIDs the shopper chose before, most recent first (at most 10 are used): those that match the
   * query come first, whatever their match kind. Unknown ones are ignored. Default: none.
   */
  recent?: readonly string[] | undefined;
  /** Most results returned. Default 10, at most 1000. */
  limit?: number | undefined;
}

/**
 * How a result matched, best first: `exact` (the whole name), `prefix` (the name starts with the
 * query), `word` (every query word starts a word of one name, in any order), `acronym` (the initials
 * of a name: "UvA", "KTH"), `host` (a label of the entityID's host, or the domain of an e-mail address:
 * `jan@student.rug.nl`), `substring` (inside a word), `typo` (one letter wrong, missing, extra or
 * swapped in a word of five letters or more).
 *
 * @group Hints
 */
export type HintMatchKind = 'exact' | 'prefix' | 'word' | 'acronym' | 'host' | 'substring' | 'typo';

/** One search hit. @group Hints */
export interface HintSearchResult {
  readonly entityId: string;
  /** Display name in the requested language (with fallback), or the entityID when the feed has no name. */
  readonly name: string;
  readonly country: string | undefined;
  /** How the query matched (see {@link HintMatchKind}). */
  readonly match: HintMatchKind;
  /**
   * What to highlight in `name`: `[start, end)` UTF-16 offsets, ascending, not overlapping. Empty when
   * the match was not in `name` (see `matchedText`).
   */
  readonly ranges: readonly (readonly [start: number, end: number])[];
  /**
   * The text that matched when it is not `name`: the institution's name in another language, or its
   * entityID's host (`host` matches). Absent when `name` itself matched.
   */
  readonly matchedText?: string;
}
