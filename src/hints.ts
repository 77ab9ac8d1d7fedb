export { AffiliationError, OptionsError, TransportError } from './core/errors.js';
export type { HintFeedErrorCode } from './hints/errors.js';
export { HintFeedError } from './hints/errors.js';
export type {
  AutoRefreshOptions,
  CacheLoadResult,
  HintFeedEvents,
  HintFeedOptions,
  HintFeedReadyOptions,
} from './hints/feed.js';
export { HintFeed } from './hints/feed.js';
export type { ParsedHintFeed } from './hints/parse.js';
export { detectHintFeedShape, parseHintFeed } from './hints/parse.js';
export type { KnownInstitution, SearchHandlerOptions, SearchResponseBody } from './hints/search-handler.js';
export type {
  HintEntry,
  HintFeedShape,
  HintMatchKind,
  HintSearchOptions,
  HintSearchResult,
  HintSource,
  RefreshResult,
  SkippedHintEntry,
  SourceRefreshResult,
} from './hints/types.js';
export { closeDefaultDispatcher } from './http/dispatcher.js';
export type { HintLookup } from './rp/types.js';
