import { z } from 'zod';

/*
 * List and read parameters of spec section 4.7, one strict schema per kind: an unknown or misspelt
 * parameter is refused before sending. `_fields` and `_embed` (global WordPress parameters) are
 * accepted everywhere.
 */

/** `context` of read-style routes. */
export const contextSchema = z.enum(['view', 'embed', 'edit']);

/** Listing status values (spec section 3). */
export const listingStatusSchema = z.enum([
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
  'any',
]);

/** Status values of content (create and update). */
export const contentStatusSchema = z.enum(['publish', 'future', 'draft', 'pending', 'private']);

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A date-time string (RFC 3339, time zone optional as WordPress allows) or a `Date`. */
export const dateTimeSchema = z.union([
  z.string().regex(DATE_TIME, 'expected a date-time such as 2024-05-01T10:00:00'),
  z.date().transform((d) => d.toISOString()),
]);

const ids = z.array(z.int().min(0));
const oneOrMany = <S extends z.ZodType>(s: S) => z.union([s, z.array(s)]);

/** A term filter: an id list or `{ terms, include_children, operator }`. */
export const termFilterSchema = z.union([
  ids,
  z.strictObject({
    terms: ids,
    include_children: z.boolean().optional(),
    operator: z.enum(['AND', 'OR']).optional(),
  }),
]);

const global = {
  _fields: oneOrMany(z.string()).optional(),
  _embed: z.union([z.boolean(), oneOrMany(z.string())]).optional(),
};

const ORDERBY = [
  'author',
  'date',
  'id',
  'include',
  'modified',
  'parent',
  'relevance',
  'slug',
  'include_slugs',
  'title',
] as const;

const commonList = {
  ...global,
  context: contextSchema.optional(),
  page: z.int().min(1).optional(),
  per_page: z.int().min(1).max(100).optional(),
  search: z.string().optional(),
  after: dateTimeSchema.optional(),
  before: dateTimeSchema.optional(),
  modified_after: dateTimeSchema.optional(),
  modified_before: dateTimeSchema.optional(),
  exclude: ids.optional(),
  include: ids.optional(),
  offset: z.int().min(0).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  orderby: z.enum(ORDERBY).optional(),
  search_columns: z.array(z.enum(['post_title', 'post_content', 'post_excerpt'])).optional(),
  search_semantics: z.enum(['exact']).optional(),
  slug: oneOrMany(z.string()).optional(),
  status: oneOrMany(listingStatusSchema).optional(),
};

const orderbyWithMenuOrder = z.enum([...ORDERBY, 'menu_order']);
const taxRelation = z.enum(['AND', 'OR']);

/** Post formats. */
export const postFormatSchema = z.enum([
  'standard',
  'aside',
  'chat',
  'gallery',
  'link',
  'image',
  'quote',
  'status',
  'video',
  'audio',
]);

/** List parameters of posts. */
export const postListSchema = z.strictObject({
  ...commonList,
  author: ids.optional(),
  author_exclude: ids.optional(),
  tax_relation: taxRelation.optional(),
  categories: termFilterSchema.optional(),
  categories_exclude: termFilterSchema.optional(),
  tags: termFilterSchema.optional(),
  tags_exclude: termFilterSchema.optional(),
  sticky: z.boolean().optional(),
  ignore_sticky: z.boolean().optional(),
  format: z.array(postFormatSchema).optional(),
});

/** List parameters of pages (`orderby` also takes `menu_order`). */
export const pageListSchema = z.strictObject({
  ...commonList,
  orderby: orderbyWithMenuOrder.optional(),
  author: ids.optional(),
  author_exclude: ids.optional(),
  menu_order: z.int().optional(),
  parent: ids.optional(),
  parent_exclude: ids.optional(),
});

/** Media types of the `media_type` filter. */
export const mediaTypeSchema = z.enum(['image', 'video', 'text', 'application', 'audio']);

/**
 * `media_type` and `mime_type` are arrays in the interface and in WordPress 6.9+, a single string in
 * earlier releases (which refuse `media_type[]=…`, and silently ignore a comma-separated list of MIME
 * types). A one-item list therefore goes out as a plain value, which every release understands; a
 * longer one as an array, which 6.9+ takes and earlier releases refuse with `rest_invalid_param`.
 */
const singleOrList = <S extends z.ZodType<string>>(s: S) =>
  oneOrMany(s).transform((v) => (Array.isArray(v) && v.length === 1 ? (v[0] as z.output<S>) : v));

/** List parameters of media. */
export const mediaListSchema = z.strictObject({
  ...commonList,
  author: ids.optional(),
  author_exclude: ids.optional(),
  parent: ids.optional(),
  parent_exclude: ids.optional(),
  media_type: singleOrList(mediaTypeSchema).optional(),
  mime_type: singleOrList(
    z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'expected a MIME type such as image/png'),
  ).optional(),
});

/** List parameters of menu items (`orderby` also takes `menu_order`). */
export const menuItemListSchema = z.strictObject({
  ...commonList,
  orderby: orderbyWithMenuOrder.optional(),
  menu_order: z.int().optional(),
  tax_relation: taxRelation.optional(),
  menus: termFilterSchema.optional(),
  menus_exclude: termFilterSchema.optional(),
});

/** List parameters of reusable blocks. */
export const blockListSchema = z.strictObject({
  ...commonList,
  tax_relation: taxRelation.optional(),
  wp_pattern_category: termFilterSchema.optional(),
  wp_pattern_category_exclude: termFilterSchema.optional(),
});

/** List parameters of templates and template parts (not paginated). */
export const templateListSchema = z.strictObject({
  ...global,
  context: contextSchema.optional(),
  wp_id: z.int().min(0).optional(),
  area: z.string().optional(),
  post_type: z.string().optional(),
});

/** Parameters of `GET /templates/lookup`. */
export const templateLookupSchema = z.strictObject({
  ...global,
  slug: z.string().min(1),
  is_custom: z.boolean().optional(),
  template_prefix: z.string().optional(),
});

/** List parameters of revisions. */
export const revisionListSchema = z.strictObject({
  ...global,
  context: contextSchema.optional(),
  page: z.int().min(1).optional(),
  per_page: z.int().min(1).max(100).optional(),
  search: z.string().optional(),
  exclude: ids.optional(),
  include: ids.optional(),
  offset: z.int().min(0).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  orderby: z.enum(['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title']).optional(),
});

/** Parameters of reads that only take `context`. */
export const contextOnlySchema = z.strictObject({ ...global, context: contextSchema.optional() });

/** Item read parameters of posts, pages and blocks. */
export const itemReadWithPasswordSchema = z.strictObject({
  ...global,
  context: contextSchema.optional(),
  excerpt_length: z.int().min(1).optional(),
  password: z.string().optional(),
});

/** Delete parameters. */
export const deleteSchema = z.strictObject({ force: z.boolean().optional() });
