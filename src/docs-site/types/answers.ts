/*
 * The answers of the site, as plain interfaces. The client checks every answer at run time against a
 * schema of its own (src/docs-site/schemas/); test/docs-site/types.test-d.ts keeps the two in step.
 * Nearly every member is optional, because `context=embed` and `_fields` return subsets, and every
 * object keeps unknown members, because plugins register their own fields (`register_rest_field`).
 */

/** A `{ raw?, rendered? }` field: title, content, excerpt, caption, description. */
export interface RenderedField {
  /** The stored text (`context: 'edit'` only). */
  raw?: string;
  /** The text as the site renders it. */
  rendered?: string;
  /** Whether the item is password-protected (content and excerpt). */
  protected?: boolean;
  /** The block format version of the content. */
  block_version?: number;
  [key: string]: unknown;
}

/**
 * `meta` of posts, pages, blocks and their revisions. WordPress 6.3+ registers `footnotes` (a string,
 * empty by default); plugins register more.
 */
export interface ContentMeta {
  footnotes?: string;
  [key: string]: unknown;
}

/** Members every content kind (posts, pages, media, blocks) shares. */
export interface ContentItem {
  id: number;
  /** Publication date in the site's time zone; `null` for a draft not yet dated. */
  date?: string | null;
  date_gmt?: string | null;
  modified?: string;
  modified_gmt?: string;
  guid?: RenderedField;
  slug?: string;
  /** `publish`, `future`, `draft`, `pending`, `private` (or `trash`, `inherit`, …). */
  status?: string;
  type?: string;
  link?: string;
  password?: string;
  title?: string | RenderedField;
  content?: string | RenderedField;
  excerpt?: string | RenderedField;
  /** User id of the author. */
  author?: number;
  /** Attachment id of the featured image; `0` for none. */
  featured_media?: number;
  /** `open` or `closed`. */
  comment_status?: string;
  /** `open` or `closed`. */
  ping_status?: string;
  template?: string;
  meta?: ContentMeta;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/** @group Docs site */
export interface Post extends ContentItem {
  /** `standard`, `aside`, `chat`, `gallery`, `link`, `image`, `quote`, `status`, `video`, `audio`. */
  format?: string;
  sticky?: boolean;
  /** Category term ids. */
  categories?: number[];
  /** Tag term ids. */
  tags?: number[];
}

/** A page of the site (named so as not to clash with {@link Page}, a page of a list). @group Docs site */
export interface SitePage extends ContentItem {
  /** Id of the parent page; `0` for none. */
  parent?: number;
  menu_order?: number;
}

/** A media attachment. @group Docs site */
export interface Media extends ContentItem {
  alt_text?: string;
  caption?: string | RenderedField;
  description?: string | RenderedField;
  /** Id of the item the attachment belongs to, if any. */
  post?: number | null;
  /** `image`, `file`, … */
  media_type?: string;
  mime_type?: string;
  /** The address of the original file. */
  source_url?: string;
  /** Sizes, dimensions, image metadata. */
  media_details?: Record<string, unknown>;
}

/** A navigation menu item. @group Docs site */
export interface MenuItem {
  id: number;
  title?: string | RenderedField;
  status?: string;
  url?: string;
  attr_title?: string;
  description?: string;
  /** `taxonomy`, `post_type`, `post_type_archive` or `custom`. */
  type?: string;
  type_label?: string;
  object?: string;
  object_id?: number;
  parent?: number;
  menu_order?: number;
  /** `_blank` or empty. */
  target?: string;
  classes?: string[];
  xfn?: string[];
  invalid?: boolean;
  /** Id of the menu the item belongs to. */
  menus?: number;
  meta?: Record<string, unknown>;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A reusable block (pattern). @group Docs site */
export interface Block extends ContentItem {
  meta?: ContentMeta & {
    /** `partial`, `unsynced` or empty; `null` in a block's revisions (WordPress 6.8, 7.x). */
    wp_pattern_sync_status?: string | null;
  };
  /** Pattern category term ids. */
  wp_pattern_category?: number[];
  /** `partial`, `unsynced` or empty (WordPress 6.3+). */
  wp_pattern_sync_status?: string;
}

/** A template or template part; its id is a string such as `twentytwentythree//home`. @group Docs site */
export interface Template {
  id: string;
  slug?: string;
  theme?: string;
  type?: string;
  /** `theme` or `custom`. */
  source?: string;
  origin?: string | null;
  content?: string | RenderedField;
  title?: string | RenderedField;
  description?: string;
  status?: string;
  /** Id of the stored post, once the template was customized. */
  wp_id?: number;
  has_theme_file?: boolean;
  is_custom?: boolean;
  author?: number;
  /** The theme's or plugin's name (WordPress 6.5+). */
  author_text?: string;
  /** `theme`, `plugin`, `site` or `user` (WordPress 6.5+). */
  original_source?: string;
  /**
   * When the template was last saved; `null` for a template that is only the theme's file
   * (WordPress 6.8 sends `false` there and 7.x `null`: both are given as `null`; 6.1 leaves it out).
   */
  modified?: string | null;
  /** WordPress 7.x: the date of the stored template, `null` for one that is only the theme's file. */
  date?: string | null;
  /** Template parts only: `header`, `footer`, `uncategorized`, … */
  area?: string;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A revision or an autosave of a template (WordPress 6.4+). It has the shape of a template: `id` is
 * the template's own id (`theme//slug`), `wp_id` the revision's post id (what `revisions().get()`
 * and `delete()` take) and `parent` the post id of the customized template.
 *
 * @group Docs site
 */
export interface TemplateRevision extends Template {
  parent?: number;
}

/** A revision or an autosave. `parent` is the id of the item revised (a string for templates). @group Docs site */
export interface Revision {
  id: number;
  parent?: number | string;
  author?: number;
  date?: string | null;
  date_gmt?: string | null;
  modified?: string;
  modified_gmt?: string;
  slug?: string;
  title?: string | RenderedField;
  content?: string | RenderedField;
  excerpt?: string | RenderedField;
  meta?: ContentMeta;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The authenticated user (`GET /{ns}/users/me`), as far as the client relies on it. @group Docs site */
export interface CurrentUser {
  id: number;
  name?: string;
  slug?: string;
  username?: string;
  roles?: string[];
  capabilities?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One argument of a route endpoint, as the index describes it. */
export interface DocsSiteRouteArg {
  type?: string | string[];
  description?: string;
  required?: boolean;
  default?: unknown;
  enum?: unknown[];
  maxItems?: number;
  minItems?: number;
  [key: string]: unknown;
}

/** One endpoint of a route: its methods and arguments. */
export interface DocsSiteEndpoint {
  methods: string[];
  args?: Record<string, DocsSiteRouteArg>;
  /** `{ v1: true }` when the batch route accepts this endpoint. */
  allow_batch?: boolean | Record<string, unknown>;
  [key: string]: unknown;
}

/** One route of the index. @group Docs site */
export interface DocsSiteRoute {
  namespace: string;
  methods: string[];
  endpoints: DocsSiteEndpoint[];
  allow_batch?: boolean | Record<string, unknown>;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The index document (`GET {rest_root}/`), spec section 2. @group Docs site */
export interface DocsSiteIndex {
  name?: string;
  description?: string;
  url?: string;
  home?: string;
  gmt_offset?: string | number;
  timezone_string?: string;
  page_for_posts?: number;
  page_on_front?: number;
  show_on_front?: string;
  /** The namespaces the site serves: `cms/v2` (or `wp/v2`), `forms/v1`, … */
  namespaces: string[];
  /** Authentication schemes; an empty object when none is advertised. */
  authentication?: {
    'application-passwords'?: {
      endpoints: { authorization: string; [key: string]: unknown };
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  /** Routes keyed by their pattern, e.g. `/cms/v2/posts`. */
  routes?: Record<string, DocsSiteRoute>;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The root of one namespace (`GET /forms/v1`). @group Docs site */
export interface NamespaceIndex {
  namespace: string;
  routes?: Record<string, DocsSiteRoute>;
  _links?: Record<string, unknown>;
  [key: string]: unknown;
}

/** An oEmbed answer (JSON format). @group Docs site */
export interface OEmbed {
  version?: string | number;
  type?: string;
  title?: string;
  html?: string;
  provider_name?: string;
  provider_url?: string;
  author_name?: string;
  author_url?: string;
  width?: number | string | null;
  height?: number | string | null;
  [key: string]: unknown;
}

/** HTTP methods the interface uses. */
export type DocsSiteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * An answer of the site: status, headers and the parsed JSON body.
 *
 * @group Docs site
 */
export interface DocsSiteResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}
