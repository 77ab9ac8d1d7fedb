/**
 * `affiliation-validation/docs-site`: a typed client of the documentation site's REST interface.
 * Re-exports only; this entry point never loads openid-client.
 *
 * @module
 */
export { AffiliationError, OptionsError, TransportError } from './core/errors.js';
export type { Logger } from './core/logger.js';
export type { BatchOptions, BatchResult, CheckedBatchRequest } from './docs-site/batch.js';
export { MAX_BATCH_CONCURRENCY, MAX_BATCH_ITEMS } from './docs-site/batch.js';
export type { BatchRequest } from './docs-site/batch-request.js';
export type {
  AuthorizationUrlOptions,
  BlocksResource,
  MenuItemsResource,
  PagesResource,
  PostsResource,
  RequestOptions,
  TemplatePartsResource,
  TemplatesOnlyResource,
} from './docs-site/client.js';
export { DocsSiteClient } from './docs-site/client.js';
export type { DocsSiteErrorCode } from './docs-site/errors.js';
export { DocsSiteError } from './docs-site/errors.js';
export type { DocsSiteAuth, DocsSiteOptions } from './docs-site/options.js';
export type { IterateOptions, Page } from './docs-site/pagination.js';
export type {
  BlockBody,
  MediaBody,
  MenuItemBody,
  PageBody,
  PostBody,
  TemplateCreateBody,
  TemplatePartCreateBody,
  TemplatePartUpdateBody,
  TemplateUpdateBody,
} from './docs-site/params/bodies.js';
export type {
  BlockListParams,
  ContextParams,
  ItemReadParams,
  MediaListParams,
  MenuItemListParams,
  PageListParams,
  PostListParams,
  RevisionListParams,
  TemplateListParams,
  TemplateLookupParams,
} from './docs-site/params/list.js';
export { LIST_DEFAULTS } from './docs-site/params/list.js';
export type { MediaEditBody, MediaModifier, MediaPostProcessBody } from './docs-site/params/media-edit.js';
export type {
  AutosavedContentResource,
  BatchableContentResource,
  ContentKind,
  ContentResource,
  RevisedContentResource,
} from './docs-site/resources/content.js';
export type { FormsResource } from './docs-site/resources/forms.js';
export type {
  KbAiSearchResource,
  KbArticleWriterResource,
  KbNotificationsResource,
  KbResource,
  KbSettingsResource,
  OAuthIdpResource,
} from './docs-site/resources/kb.js';
export type { LayoutsResource } from './docs-site/resources/layouts.js';
export type { MediaResource, UploadOptions } from './docs-site/resources/media.js';
export type {
  OEmbed,
  OEmbedEmbedParams,
  OEmbedProxyParams,
  OEmbedResource,
} from './docs-site/resources/oembed.js';
export type { JsonObject, PluginNamespace, PluginQuery } from './docs-site/resources/plugin-base.js';
export type { AutosavesResource, RevisionsResource } from './docs-site/resources/revisions.js';
export type { DeleteOptions, DeleteResult, UpdateOptions } from './docs-site/resources/shared.js';
export type { TemplatesResource } from './docs-site/resources/templates.js';
export type {
  Block,
  Media,
  MenuItem,
  Post,
  Revision,
  SitePage,
  Template,
} from './docs-site/schemas/content.js';
export { docsSiteSchemas } from './docs-site/schemas/index.js';
export type { DocsSiteIndex, DocsSiteRoute, NamespaceIndex } from './docs-site/schemas/index-document.js';
export type { CurrentUser } from './docs-site/schemas/user.js';
export type { DocsSiteMethod, DocsSiteResponse } from './docs-site/transport.js';
export type { UploadSource } from './docs-site/upload.js';
export { closeDefaultDispatcher } from './http/dispatcher.js';
