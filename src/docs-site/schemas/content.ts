import { z } from 'zod';
import { emptyArrayAsObject, links, looseRecord, renderedField, textOrRendered } from './common.js';

/*
 * Answer schemas of the content kinds. Every object keeps unknown members (plugins register fields)
 * and nearly every member is optional, because `context=embed` and `_fields` return subsets.
 */

const dateOrNull = z.string().nullable().optional();

export const contentMetaSchema = emptyArrayAsObject(z.looseObject({ footnotes: z.string().optional() })).meta(
  {
    id: 'ContentMeta',
    description:
      '`meta` of posts, pages, blocks and their revisions. WordPress 6.3+ registers `footnotes` (a string,\nempty by default); plugins register more.',
    group: '',
  },
);
const contentMeta = contentMetaSchema.optional();

const templateModified = z
  .union([
    z.string(),
    z.null(),
    z
      .literal(false)
      .transform(() => null)
      .meta({ ts: 'null' }),
  ])
  .optional()
  .describe(
    "When the template was last saved; `null` for a template that is only the theme's file\n(WordPress 6.8 sends `false` there and 7.x `null`: both are given as `null`; 6.1 leaves it out).",
  );

const contentBase = {
  id: z.number().int(),
  date: dateOrNull.describe("Publication date in the site's time zone; `null` for a draft not yet dated."),
  date_gmt: dateOrNull,
  modified: z.string().optional(),
  modified_gmt: z.string().optional(),
  guid: renderedField.optional(),
  slug: z.string().optional(),
  status: z
    .string()
    .optional()
    .describe('`publish`, `future`, `draft`, `pending`, `private` (or `trash`, `inherit`, …).'),
  type: z.string().optional(),
  link: z.string().optional(),
  password: z.string().optional(),
  title: textOrRendered.optional(),
  content: textOrRendered.optional(),
  excerpt: textOrRendered.optional(),
  author: z.number().int().optional().describe('User id of the author.'),
  featured_media: z.number().int().optional().describe('Attachment id of the featured image; `0` for none.'),
  comment_status: z.string().optional().describe('`open` or `closed`.'),
  ping_status: z.string().optional().describe('`open` or `closed`.'),
  template: z.string().optional(),
  meta: contentMeta,
  _links: links,
};

export const contentItemSchema = z.looseObject(contentBase).meta({
  id: 'ContentItem',
  description: 'Members every content kind (posts, pages, media, blocks) shares.',
  group: '',
});

export const postSchema = z
  .looseObject({
    ...contentBase,
    format: z
      .string()
      .optional()
      .describe(
        '`standard`, `aside`, `chat`, `gallery`, `link`, `image`, `quote`, `status`, `video`, `audio`.',
      ),
    sticky: z.boolean().optional(),
    categories: z.array(z.number().int()).optional().describe('Category term ids.'),
    tags: z.array(z.number().int()).optional().describe('Tag term ids.'),
  })
  .meta({ id: 'Post', description: 'A post.' });

export const pageSchema = z
  .looseObject({
    ...contentBase,
    parent: z.number().int().optional().describe('Id of the parent page; `0` for none.'),
    menu_order: z.number().int().optional(),
  })
  .meta({
    id: 'SitePage',
    description: 'A page of the site (named so as not to clash with {@link Page}, a page of a list).',
  });

export const mediaSchema = z
  .looseObject({
    ...contentBase,
    alt_text: z.string().optional(),
    caption: textOrRendered.optional(),
    description: textOrRendered.optional(),
    post: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe('Id of the item the attachment belongs to, if any.'),
    media_type: z.string().optional().describe('`image`, `file`, …'),
    mime_type: z.string().optional(),
    source_url: z.string().optional().describe('The address of the original file.'),
    media_details: looseRecord.optional().describe('Sizes, dimensions, image metadata.'),
  })
  .meta({ id: 'Media', description: 'A media attachment.' });

export const menuItemSchema = z
  .looseObject({
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
  })
  .meta({ id: 'MenuItem', description: 'A navigation menu item.' });

export const blockSchema = z
  .looseObject({
    ...contentBase,
    meta: emptyArrayAsObject(
      z.looseObject({
        footnotes: z.string().optional(),
        // A revision of a block sends null (WordPress 6.8, 7.1).
        wp_pattern_sync_status: z.string().nullable().optional(),
      }),
    ).optional(),
    wp_pattern_category: z.array(z.number().int()).optional().describe('Pattern category term ids.'),
    wp_pattern_sync_status: z
      .string()
      .optional()
      .describe('`partial`, `unsynced` or empty (WordPress 6.3+).'),
  })
  .meta({ id: 'Block', description: 'A reusable block (pattern).' });

export const templateSchema = z
  .looseObject({
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
    area: z.string().optional().describe('Template parts only: `header`, `footer`, `uncategorized`, …'),
    _links: links,
  })
  .meta({
    id: 'Template',
    description: 'A template or template part; its id is a string such as `twentytwentythree//home`.',
  });

export const templateRevisionSchema = templateSchema.extend({ parent: z.number().int().optional() }).meta({
  id: 'TemplateRevision',
  description:
    "A revision or an autosave of a template (WordPress 6.4+). It has the shape of a template: `id` is\nthe template's own id (`theme//slug`), `wp_id` the revision's post id (what `revisions().get()`\nand `delete()` take) and `parent` the post id of the customized template.",
});

export const revisionSchema = z
  .looseObject({
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
  })
  .meta({
    id: 'Revision',
    description:
      'A revision or an autosave. `parent` is the id of the item revised (a string for templates).',
  });
