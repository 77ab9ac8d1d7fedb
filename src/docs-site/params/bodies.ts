import { z } from 'zod';
import { contentStatusSchema, dateTimeSchema, postFormatSchema } from './list.js';

/*
 * Request bodies of spec section 2 and 4.7. Known fields are checked; unknown fields pass through,
 * because plugins register their own fields (`register_rest_field`).
 */

export const rawTextSchema = z
  .union([z.string(), z.looseObject({ raw: z.string() })])
  .meta({ id: 'RawText', description: 'A text field sent as a string or as `{ raw }`.', group: '' });
const ids = z.array(z.int().min(0));
const openClosed = z.enum(['open', 'closed']);
const metaObject = z.record(z.string(), z.unknown());

const contentBody = {
  date: dateTimeSchema.nullable().optional(),
  date_gmt: dateTimeSchema.nullable().optional(),
  slug: z.string().optional(),
  status: contentStatusSchema.optional(),
  password: z.string().optional(),
  title: rawTextSchema.optional(),
  content: rawTextSchema.optional(),
  excerpt: rawTextSchema.optional(),
  author: z.int().min(0).optional(),
  featured_media: z.int().min(0).optional(),
  comment_status: openClosed.optional(),
  ping_status: openClosed.optional(),
  meta: metaObject.optional(),
  template: z.string().optional(),
};

export const contentBodySchema = z.looseObject(contentBody).meta({
  id: 'ContentBody',
  description:
    'Fields every content body (posts, pages, media, blocks) shares; unknown fields are sent as given.',
  group: '',
});

export const postBodySchema = z
  .looseObject({
    ...contentBody,
    format: postFormatSchema.optional(),
    sticky: z.boolean().optional(),
    categories: ids.optional(),
    tags: ids.optional(),
  })
  .meta({ id: 'PostBody', description: 'Body of a post create or update.' });

export const pageBodySchema = z
  .looseObject({
    ...contentBody,
    parent: z.int().min(0).optional(),
    menu_order: z.int().optional(),
  })
  .meta({ id: 'PageBody', description: 'Body of a page create or update.' });

export const mediaBodySchema = z
  .looseObject({
    ...contentBody,
    alt_text: z.string().optional(),
    caption: rawTextSchema.optional(),
    description: rawTextSchema.optional(),
    post: z.int().min(0).optional(),
  })
  .meta({ id: 'MediaBody', description: 'Body of a media update (and the fields of an upload).' });

export const blockBodySchema = z
  .looseObject({
    ...contentBody,
    wp_pattern_category: ids.optional(),
    meta: z
      .looseObject({ wp_pattern_sync_status: z.enum(['partial', 'unsynced', '']).optional() })
      .optional(),
  })
  .meta({ id: 'BlockBody', description: 'Body of a reusable block create or update.' });

export const menuItemBodySchema = z
  .looseObject({
    title: rawTextSchema.optional(),
    type: z
      .enum(['taxonomy', 'post_type', 'post_type_archive', 'custom'])
      .optional()
      .describe('Default `custom`.'),
    status: contentStatusSchema.optional(),
    parent: z.int().min(0).optional(),
    attr_title: z.string().optional(),
    classes: z.array(z.string()).optional(),
    description: z.string().optional(),
    menu_order: z.int().min(1).optional().describe('From 1.'),
    object: z.string().optional(),
    object_id: z.int().min(0).optional(),
    target: z.enum(['_blank', '']).optional(),
    url: z
      .union([z.url(), z.literal('')])
      .optional()
      .describe('An absolute URL, or empty.'),
    xfn: z.array(z.string()).optional(),
    menus: z.int().min(0).optional(),
    meta: metaObject.optional(),
  })
  .meta({ id: 'MenuItemBody', description: 'Body of a menu item create or update.' });

/** The slug rule of templates and template parts: letters, digits, underscore, percent, hyphen. */
export const templateSlugSchema = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_%-]+$/, 'expected letters, digits, underscore, percent or hyphen');

export const templateUpdateSchema = z
  .looseObject({
    slug: templateSlugSchema.optional(),
    theme: z.string().optional(),
    type: z.string().optional(),
    content: rawTextSchema.optional(),
    title: rawTextSchema.optional(),
    description: z.string().optional(),
    status: contentStatusSchema.optional(),
    author: z.int().min(0).optional(),
  })
  .meta({
    id: 'TemplateUpdateBody',
    description: 'Fields of a template or template-part update; `slug` is letters, digits, `_`, `%`, `-`.',
  });
export const templateCreateSchema = templateUpdateSchema
  .extend({ slug: templateSlugSchema })
  .meta({ id: 'TemplateCreateBody', description: 'Body of a template create (`slug` required).' });
export const templatePartUpdateSchema = templateUpdateSchema
  .extend({ area: z.string().optional() })
  .meta({ id: 'TemplatePartUpdateBody', description: 'Body of a template-part update.' });
export const templatePartCreateSchema = templatePartUpdateSchema
  .extend({ slug: templateSlugSchema })
  .meta({ id: 'TemplatePartCreateBody', description: 'Body of a template-part create (`slug` required).' });
