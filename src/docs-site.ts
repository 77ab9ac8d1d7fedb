/**
 * `affiliation-validation/docs-site`: a typed client of the documentation site's REST interface.
 * Re-exports only; this entry point never loads the RP core, openid-client or jose (the `import-graph`
 * script checks the built file). Its types are plain interfaces: the
 * schemas that check parameters and answers at run time stay inside.
 *
 * @module
 */
export { AffiliationError, OptionsError, TransportError } from './core/errors.js';
export type { Logger } from './core/logger.js';
export type {
  BatchOptions,
  BatchRequest,
  BatchResult,
  CheckedBatchRequest,
} from './docs-site/batch-request.js';
export { MAX_BATCH_CONCURRENCY, MAX_BATCH_ITEMS } from './docs-site/batch-request.js';
export type { AuthorizationUrlOptions, RequestOptions } from './docs-site/client.js';
export { DocsSiteClient } from './docs-site/client.js';
export { LIST_DEFAULTS } from './docs-site/defaults.js';
export type { DocsSiteErrorCode } from './docs-site/errors.js';
export { DocsSiteError } from './docs-site/errors.js';
export { STATE_FILE as SYNC_STATE_FILE, syncFolder } from './docs-site/files.js';
export type { DocsSiteAuth, DocsSiteOptions } from './docs-site/options.js';
export type { IterateOptions, Page } from './docs-site/pagination.js';
export type { DocsSyncErrorCode, DocsSyncIssue } from './docs-site/sync/errors.js';
export { DocsSyncError } from './docs-site/sync/errors.js';
export type { SyncAction, SyncItem, SyncOptions, SyncReport } from './docs-site/sync/types.js';
// The types module holds only public types: answers and parameters generated from the schemas, and
// the resources' interfaces.
export type * from './docs-site/types/resources.js';
export type { UploadSource } from './docs-site/upload.js';
export { closeDefaultDispatcher } from './http/dispatcher.js';
