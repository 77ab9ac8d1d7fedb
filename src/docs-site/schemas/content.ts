import { z } from 'zod';
import { emptyArrayAsObject, links, looseRecord, renderedField, textOrRendered } from './common.js';

/*
 * Answer schemas of the content kinds. Every object keeps unknown members (plugins register fields)
 * and nearly every member is optional, because `context=embed` and `_fields` return subsets.
 */

const dateOrNull = z.string().nullable().optional();

/**
 * `meta` of posts, pages, blocks and their revisions: `footnotes` (a string, empty by default) since
 * WordPress 6.3, `[]` when no meta field is registered (6.1).
 */
const contentMeta = emptyArrayAsObject(z.looseObject({ footnotes: z.string().optional() })).optional();

/**
 * `modified` of a template: a date-time once customized; for a template that is only the theme's
 * file, WordPress 6.8 sends `false` and 7.x `null` (6.1 leaves the field out). Both become `null`.
 */
const templateModified = z.union([z.string(), z.null(), z.literal(false).transform(() => null)]).optional();

const contentBase = {
  id: z.number().int(),
  date: dateOrNull,
  date_gmt: dateOrNull,
  modified: z.string().optional(),
  modified_gmt: z.string().optional(),
  guid: renderedField.optional(),
  slug: z.string().optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  link: z.string().optional(),
  password: z.string().optional(),
  title: textOrRendered.optional(),
  content: textOrRendered.optional(),
  excerpt: textOrRendered.optional(),
  author: z.number().int().optional(),
  featured_media: z.number().int().optional(),
  comment_status: z.string().optional(),
  ping_status: z.string().optional(),
  template: z.string().optional(),
  meta: contentMeta,
  _links: links,
};

/** A post. */
export const postSchema = z.looseObject({
  ...contentBase,
  format: z.string().optional(),
  sticky: z.boolean().optional(),
  categories: z.array(z.number().int()).optional(),
  tags: z.array(z.number().int()).optional(),
});

/** A page. */
export const pageSchema = z.looseObject({
  ...contentBase,
  parent: z.number().int().optional(),
  menu_order: z.number().int().optional(),
});

/** A media attachment. */
export const mediaSchema = z.looseObject({
  ...contentBase,
  alt_text: z.string().optional(),
  caption: textOrRendered.optional(),
  description: textOrRendered.optional(),
  post: z.number().int().nullable().optional(),
  media_type: z.string().optional(),
  mime_type: z.string().optional(),
  source_url: z.string().optional(),
  media_details: looseRecord.optional(),
});

/** A navigation menu item. */
export const menuItemSchema = z.looseObject({
  id: z.number().int(),
  title: textOrRendered.optional(),
  status: z.string().optional(),
  url: z.string().optional(),
  attr_title: z.string().optional(),
  description: z.string().optional(),
  type: z.string().optional(),
  type_label: z.string().optional(),
  object: z.string().optional(),
  object_id: z.number().int().optional(),
  parent: z.number().int().optional(),
  menu_order: z.number().int().optional(),
  target: z.string().optional(),
  classes: z.array(z.string()).optional(),
  xfn: z.array(z.string()).optional(),
  invalid: z.boolean().optional(),
  menus: z.number().int().optional(),
  meta: looseRecord.optional(),
  _links: links,
});

/** A reusable block (pattern). */
export const blockSchema = z.looseObject({
  ...contentBase,
  meta: emptyArrayAsObject(
    z.looseObject({
      footnotes: z.string().optional(),
      // A revision of a block sends null (WordPress 6.8, 7.1).
      wp_pattern_sync_status: z.string().nullable().optional(),
    }),
  ).optional(),
  wp_pattern_category: z.array(z.number().int()).optional(),
  wp_pattern_sync_status: z.string().optional(),
});

/** A template or template part; its id is a string `theme//slug`. */
export const templateSchema = z.looseObject({
  id: z.string(),
  slug: z.string().optional(),
  theme: z.string().optional(),
  type: z.string().optional(),
  source: z.string().optional(),
  origin: z.string().nullable().optional(),
  content: textOrRendered.optional(),
  title: textOrRendered.optional(),
  description: z.string().optional(),
  status: z.string().optional(),
  wp_id: z.number().int().optional(),
  has_theme_file: z.boolean().optional(),
  is_custom: z.boolean().optional(),
  author: z.number().int().optional(),
  /** The theme's or plugin's name (WordPress 6.5+). */
  author_text: z.string().optional(),
  original_source: z.string().optional(),
  modified: templateModified,
  /** WordPress 7.x: `null` for a template that is only the theme's file. */
  date: dateOrNull,
  area: z.string().optional(),
  _links: links,
});

/**
 * A revision or an autosave of a template (WordPress 6.4+): shaped like a template, so `id` is the
 * template's own id (`theme//slug`), `wp_id` the revision's post id (the one `get` and `delete`
 * take) and `parent` the post id of the customized template.
 */
export const templateRevisionSchema = templateSchema.extend({
  parent: z.number().int().optional(),
});

/** A revision or an autosave. `parent` is the id of the item revised (a string for templates). */
export const revisionSchema = z.looseObject({
  id: z.number().int(),
  parent: z.union([z.number().int(), z.string()]).optional(),
  author: z.number().int().optional(),
  date: dateOrNull,
  date_gmt: dateOrNull,
  modified: z.string().optional(),
  modified_gmt: z.string().optional(),
  slug: z.string().optional(),
  title: textOrRendered.optional(),
  content: textOrRendered.optional(),
  excerpt: textOrRendered.optional(),
  meta: contentMeta,
  _links: links,
});
