import { z } from 'zod';

/*
 * List and read parameters of spec section 4.7, one strict schema per kind: an unknown or misspelt
 * parameter is refused before sending. `_fields` and `_embed` (global WordPress parameters) are
 * accepted everywhere.
 */

export const contextSchema = z
  .enum(['view', 'embed', 'edit'])
  .meta({ id: 'DocsSiteContext', description: '`context` of read-style routes. Default `view`.', group: '' });

export const contentStatusSchema = z.enum(['publish', 'future', 'draft', 'pending', 'private']).meta({
  id: 'ContentStatus',
  description: 'Status values of content (create and update), spec section 3.',
  group: '',
});

export const listingStatusSchema = z
  .enum([
    ...contentStatusSchema.options,
    'trash',
    'auto-draft',
    'inherit',
    'request-pending',
    'request-confirmed',
    'request-failed',
    'request-completed',
    'any',
  ])
  .meta({ id: 'ListingStatus', description: 'Status values a list accepts, spec section 3.', group: '' });

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

export const dateTimeSchema = z
  .union([
    z.string().regex(DATE_TIME, 'expected a date-time such as 2024-05-01T10:00:00'),
    z.date().transform((d) => d.toISOString()),
  ])
  .meta({
    id: 'DateTimeInput',
    description: 'A date-time: an RFC 3339 string (time zone optional, as WordPress allows) or a `Date`.',
    group: '',
  });

const ids = z.array(z.int().min(0));
const oneOrMany = <S extends z.ZodType>(s: S) => z.union([s, z.array(s)]);

export const termFilterSchema = z
  .union([
    ids,
    z.strictObject({
      terms: ids,
      include_children: z.boolean().optional(),
      operator: z.enum(['AND', 'OR']).optional(),
    }),
  ])
  .meta({
    id: 'TermFilter',
    description: 'A term filter: an id list, or `{ terms, include_children, operator }`.',
    group: '',
  });

const global = {
  _fields: oneOrMany(z.string()).optional().describe('Only these fields in the answer.'),
  _embed: z
    .union([z.boolean(), oneOrMany(z.string())])
    .optional()
    .describe('Embed linked resources (all, or the named link relations).'),
};

/** What every read takes: `context` and the global parameters. */
const contextOnly = {
  ...global,
  context: contextSchema
    .optional()
    .describe('Default `view`; `edit` adds the `raw` texts and needs an editor.'),
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

export const listOrderBySchema = z
  .enum(ORDERBY)
  .meta({ id: 'ListOrderBy', description: '`orderby` values of every list.', group: '' });

const commonList = {
  ...contextOnly,
  page: z.int().min(1).optional().describe('Page number, from 1. Default 1.'),
  per_page: z
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('Items per page, 1 to 100. Default 10 (100 for menu items).'),
  search: z.string().optional(),
  after: dateTimeSchema.optional(),
  before: dateTimeSchema.optional(),
  modified_after: dateTimeSchema.optional(),
  modified_before: dateTimeSchema.optional(),
  exclude: ids.optional(),
  include: ids.optional(),
  offset: z.int().min(0).optional(),
  order: z.enum(['asc', 'desc']).optional().describe('Default `desc` (`asc` for menu items).'),
  orderby: listOrderBySchema.optional().describe('Default `date` (`menu_order` for menu items).'),
  search_columns: z.array(z.enum(['post_title', 'post_content', 'post_excerpt'])).optional(),
  search_semantics: z.enum(['exact']).optional(),
  slug: oneOrMany(z.string()).optional(),
  status: oneOrMany(listingStatusSchema).optional().describe('Default `publish` (`inherit` for media).'),
};

export const listParamsSchema = z.strictObject(commonList).meta({
  id: 'ListParams',
  description: 'List parameters every content kind shares (spec section 4.7).',
  group: '',
});

const byAuthor = { author: ids.optional(), author_exclude: ids.optional() };
const byParent = { parent: ids.optional(), parent_exclude: ids.optional() };
const byMenuOrder = {
  orderby: z.enum([...ORDERBY, 'menu_order']).optional(),
  menu_order: z.int().optional(),
};
const taxRelation = { tax_relation: z.enum(['AND', 'OR']).optional() };

export const postFormatSchema = z
  .enum(['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'])
  .meta({ id: 'PostFormat', description: 'Post formats.', group: '' });

export const postListSchema = z
  .strictObject({
    ...commonList,
    ...byAuthor,
    ...taxRelation,
    categories: termFilterSchema.optional(),
    categories_exclude: termFilterSchema.optional(),
    tags: termFilterSchema.optional(),
    tags_exclude: termFilterSchema.optional(),
    sticky: z.boolean().optional(),
    ignore_sticky: z.boolean().optional().describe('Default `true`.'),
    format: z.array(postFormatSchema).optional(),
  })
  .meta({ id: 'PostListParams', description: 'List parameters of posts.' });

export const pageListSchema = z
  .strictObject({ ...commonList, ...byMenuOrder, ...byAuthor, ...byParent })
  .meta({
    id: 'PageListParams',
    description: 'List parameters of pages (`orderby` also takes `menu_order`).',
  });

export const mediaTypeSchema = z
  .enum(['image', 'video', 'text', 'application', 'audio'])
  .meta({ id: 'MediaType', description: 'Media types of the `media_type` filter.', group: '' });

/**
 * `media_type` and `mime_type` are arrays in the interface and in WordPress 6.9+, a single string in
 * earlier releases (which refuse `media_type[]=…`, and silently ignore a comma-separated list of MIME
 * types). A one-item list therefore goes out as a plain value, which every release understands; a
 * longer one as an array, which 6.9+ takes and earlier releases refuse with `rest_invalid_param`.
 */
const singleOrList = <S extends z.ZodType<string>>(s: S) =>
  oneOrMany(s).transform((v) => (Array.isArray(v) && v.length === 1 ? (v[0] as z.output<S>) : v));

export const mediaListSchema = z
  .strictObject({
    ...commonList,
    ...byAuthor,
    ...byParent,
    media_type: singleOrList(mediaTypeSchema)
      .optional()
      .describe(
        'Media types. One value works on every WordPress release; several need WordPress 6.9+ (earlier\nreleases take one and answer `rest_invalid_param`, with a message saying so).',
      ),
    mime_type: singleOrList(
      z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'expected a MIME type such as image/png'),
    )
      .optional()
      .describe('MIME types such as `image/png`; several need WordPress 6.9+, like `media_type`.'),
  })
  .meta({ id: 'MediaListParams', description: 'List parameters of media.' });

export const menuItemListSchema = z
  .strictObject({
    ...commonList,
    ...byMenuOrder,
    ...taxRelation,
    menus: termFilterSchema.optional(),
    menus_exclude: termFilterSchema.optional(),
  })
  .meta({
    id: 'MenuItemListParams',
    description: 'List parameters of menu items (`orderby` also takes `menu_order`).',
  });

export const blockListSchema = z
  .strictObject({
    ...commonList,
    ...taxRelation,
    wp_pattern_category: termFilterSchema.optional(),
    wp_pattern_category_exclude: termFilterSchema.optional(),
  })
  .meta({ id: 'BlockListParams', description: 'List parameters of reusable blocks.' });

export const templateListSchema = z
  .strictObject({
    ...contextOnly,
    wp_id: z.int().min(0).optional(),
    area: z.string().optional(),
    post_type: z.string().optional(),
  })
  .meta({
    id: 'TemplateListParams',
    description: 'List parameters of templates and template parts (not paginated).',
  });

export const templateLookupSchema = z
  .strictObject({
    ...global,
    slug: z.string().min(1).describe('The slug to find the fallback template of.'),
    is_custom: z.boolean().optional(),
    template_prefix: z.string().optional(),
  })
  .meta({ id: 'TemplateLookupParams', description: 'Parameters of `GET /templates/lookup`.' });

export const revisionListSchema = z
  .strictObject({
    ...contextOnly,
    page: z.int().min(1).optional(),
    per_page: z.int().min(1).max(100).optional(),
    search: z.string().optional(),
    exclude: ids.optional(),
    include: ids.optional(),
    offset: z.int().min(0).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    orderby: z.enum(['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title']).optional(),
  })
  .meta({ id: 'RevisionListParams', description: 'List parameters of revisions.' });

export const contextOnlySchema = z.strictObject(contextOnly).meta({
  id: 'ContextParams',
  description:
    "Parameters of reads that take only `context` (plus WordPress's global `_fields` and `_embed`).",
});

export const itemReadWithPasswordSchema = z
  .strictObject({
    ...contextOnly,
    excerpt_length: z.int().min(1).optional().describe('Length of the generated excerpt, in words.'),
    password: z.string().optional().describe('The password of a password-protected item.'),
  })
  .meta({ id: 'ItemReadParams', description: 'Item read parameters of posts, pages and blocks.' });

export const deleteSchema = z
  .strictObject({
    force: z
      .boolean()
      .optional()
      .describe("Delete for good instead of moving to the trash. Default `false` (the site's default)."),
  })
  .meta({ id: 'DeleteOptions', description: 'Options of a delete.' });
