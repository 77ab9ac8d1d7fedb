/** The search index lives in `./search/`; this module keeps the import path the feed uses. */

export { pickName } from './search/build.js';
export {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
  SearchIndex,
} from './search/index.js';
