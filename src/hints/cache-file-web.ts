/** The Web build of `cache-file.ts` (package.json `imports` `#hints-cache-file`): no file system here. */
import { OptionsError } from '../core/errors.js';

function noFileSystem(): never {
  throw new OptionsError(
    'cacheFile needs a file system (Node, Bun or Deno): on a Web runtime leave it out, and keep the list in a KV store or a static asset read through `fetch`',
  );
}

export {
  noFileSystem as cacheWriter,
  noFileSystem as partFromCache,
  noFileSystem as readCacheFile,
  noFileSystem as toCachedSource,
};
