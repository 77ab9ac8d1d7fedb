import { AffiliationError } from '../core/errors.js';

/**
 * Codes of {@link HintFeedError}:
 *
 * - `feed_http_status`: the feed answered with a status other than 200 (or an unsolicited 304).
 * - `feed_invalid_json`: the body is not UTF-8 JSON (also a truncated body).
 * - `feed_invalid_shape`: JSON, but not one of the three feed shapes, or not one valid entry in it (the
 *   message names the first bad path). A few invalid entries beside valid ones are skipped, not an error
 *   (`SourceRefreshResult.skipped`).
 * - `feed_ambiguous_shape`: the document mixes shapes (country codes next to entityIDs, flat names next to
 *   per-language names), so it cannot be read without guessing.
 * - `feed_empty`: a valid document that lists no institution; refused so that a broken publisher cannot
 *   wipe the list.
 * - `feed_too_large`: the body exceeds `maxBytes`.
 * - `feed_timeout`: no complete answer within `timeoutMs`.
 * - `feed_unreachable`: connection refused or reset, DNS failure, body cut off mid-way.
 * - `cache_invalid`: the `cacheFile` exists but is not a hints cache this version can read.
 * - `cache_write_failed`: the `cacheFile` could not be written (the list in memory was still updated).
 * - `refresh_failed`: an unexpected error during a refresh (a bug); the last good list keeps serving.
 * - `not_loaded`: `HintFeed.ready()` gave up: no list from the cache file and no successful refresh.
 * - `feed_closed`: the feed was closed (`HintFeed.close()`); `ready()` and `refresh()` report it.
 *
 * @group Hints
 */
export type HintFeedErrorCode =
  | 'feed_http_status'
  | 'feed_invalid_json'
  | 'feed_invalid_shape'
  | 'feed_ambiguous_shape'
  | 'feed_empty'
  | 'feed_too_large'
  | 'feed_timeout'
  | 'feed_unreachable'
  | 'cache_invalid'
  | 'cache_write_failed'
  | 'refresh_failed'
  | 'not_loaded'
  | 'feed_closed';

/**
 * A hint feed or its cache file could not be used. The last good list keeps serving: this error is
 * reported (in a refresh result, an `'error'` event, or thrown by {@link parseHintFeed}), never left to
 * crash the process. A {@link TransportError} from the HTTP layer is kept in `cause`.
 *
 * @group Hints
 */
export class HintFeedError extends AffiliationError {
  declare readonly code: HintFeedErrorCode;
  /** The feed URL (credentials and secret parameters removed), when the error concerns one source. */
  readonly source: string | undefined;
  /** HTTP status, when the feed answered. */
  readonly status: number | undefined;

  constructor(
    message: string,
    options: { code: HintFeedErrorCode; cause?: unknown; source?: string; status?: number },
  ) {
    super(message, {
      code: options.code,
      cause: options.cause,
      userMessage: 'The list of institutions could not be updated just now; the previous list is still used.',
    });
    this.source = options.source;
    this.status = options.status;
  }
}
