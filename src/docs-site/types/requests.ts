/*
 * What scripts send: list and read parameters and request bodies of spec sections 2 and 4.7, as
 * plain interfaces. The client checks them before sending with schemas of its own
 * (src/docs-site/params/); test/docs-site/types.test-d.ts keeps the two in step. Optional members
 * also take `undefined` (for `exactOptionalPropertyTypes`); an `undefined` member is not sent.
 */

/** `context` of read-style routes. Default `view`. */
export type DocsSiteContext = 'view' | 'embed' | 'edit';

/** Status values of content (create and update), spec section 3. */
export type ContentStatus = 'publish' | 'future' | 'draft' | 'pending' | 'private';

/** Status values a list accepts, spec section 3. */
export type ListingStatus =
  | ContentStatus
  | 'trash'
  | 'auto-draft'
  | 'inherit'
  | 'request-pending'
  | 'request-confirmed'
  | 'request-failed'
  | 'request-completed'
  | 'any';

/** Post formats. */
export type PostFormat =
  | 'standard'
  | 'aside'
  | 'chat'
  | 'gallery'
  | 'link'
  | 'image'
  | 'quote'
  | 'status'
  | 'video'
  | 'audio';

/** Media types of the `media_type` filter. */
export type MediaType = 'image' | 'video' | 'text' | 'application' | 'audio';

/** A date-time: an RFC 3339 string (time zone optional, as WordPress allows) or a `Date`. */
export type DateTimeInput = string | Date;

/** A term filter: an id list, or `{ terms, include_children, operator }`. */
export type TermFilter =
  | number[]
  | { terms: number[]; include_children?: boolean | undefined; operator?: 'AND' | 'OR' | undefined };

/** `orderby` values of every list. */
export type ListOrderBy =
  | 'author'
  | 'date'
  | 'id'
  | 'include'
  | 'modified'
  | 'parent'
  | 'relevance'
  | 'slug'
  | 'include_slugs'
  | 'title';

/** Parameters of reads that take only `context` (plus WordPress's global `_fields` and `_embed`). @group Docs site */
export interface ContextParams {
  /** Only these fields in the answer. */
  _fields?: string | string[] | undefined;
  /** Embed linked resources (all, or the named link relations). */
  _embed?: boolean | string | string[] | undefined;
  /** Default `view`; `edit` adds the `raw` texts and needs an editor. */
  context?: DocsSiteContext | undefined;
}

/** Item read parameters of posts, pages and blocks. @group Docs site */
export interface ItemReadParams extends ContextParams {
  /** Length of the generated excerpt, in words. */
  excerpt_length?: number | undefined;
  /** The password of a password-protected item. */
  password?: string | undefined;
}

/** List parameters every content kind shares (spec section 4.7). */
export interface ListParams extends ContextParams {
  /** Page number, from 1. Default 1. */
  page?: number | undefined;
  /** Items per page, 1 to 100. Default 10 (100 for menu items). */
  per_page?: number | undefined;
  search?: string | undefined;
  after?: DateTimeInput | undefined;
  before?: DateTimeInput | undefined;
  modified_after?: DateTimeInput | undefined;
  modified_before?: DateTimeInput | undefined;
  exclude?: number[] | undefined;
  include?: number[] | undefined;
  offset?: number | undefined;
  /** Default `desc` (`asc` for menu items). */
  order?: 'asc' | 'desc' | undefined;
  /** Default `date` (`menu_order` for menu items). */
  orderby?: ListOrderBy | undefined;
  search_columns?: ('post_title' | 'post_content' | 'post_excerpt')[] | undefined;
  search_semantics?: 'exact' | undefined;
  slug?: string | string[] | undefined;
  /** Default `publish` (`inherit` for media). */
  status?: ListingStatus | ListingStatus[] | undefined;
}

/** List parameters of posts. @group Docs site */
export interface PostListParams extends ListParams {
  author?: number[] | undefined;
  author_exclude?: number[] | undefined;
  tax_relation?: 'AND' | 'OR' | undefined;
  categories?: TermFilter | undefined;
  categories_exclude?: TermFilter | undefined;
  tags?: TermFilter | undefined;
  tags_exclude?: TermFilter | undefined;
  sticky?: boolean | undefined;
  /** Default `true`. */
  ignore_sticky?: boolean | undefined;
  format?: PostFormat[] | undefined;
}

/** List parameters of pages (`orderby` also takes `menu_order`). @group Docs site */
export interface PageListParams extends Omit<ListParams, 'orderby'> {
  orderby?: ListOrderBy | 'menu_order' | undefined;
  author?: number[] | undefined;
  author_exclude?: number[] | undefined;
  menu_order?: number | undefined;
  parent?: number[] | undefined;
  parent_exclude?: number[] | undefined;
}

/** List parameters of media. @group Docs site */
export interface MediaListParams extends ListParams {
  author?: number[] | undefined;
  author_exclude?: number[] | undefined;
  parent?: number[] | undefined;
  parent_exclude?: number[] | undefined;
  /**
   * Media types. One value works on every WordPress release; several need WordPress 6.9+ (earlier
   * releases take one and answer `rest_invalid_param`, with a message saying so).
   */
  media_type?: MediaType | MediaType[] | undefined;
  /** MIME types such as `image/png`; several need WordPress 6.9+, like `media_type`. */
  mime_type?: string | string[] | undefined;
}

/** List parameters of menu items (`orderby` also takes `menu_order`). @group Docs site */
export interface MenuItemListParams extends Omit<ListParams, 'orderby'> {
  orderby?: ListOrderBy | 'menu_order' | undefined;
  menu_order?: number | undefined;
  tax_relation?: 'AND' | 'OR' | undefined;
  menus?: TermFilter | undefined;
  menus_exclude?: TermFilter | undefined;
}

/** List parameters of reusable blocks. @group Docs site */
export interface BlockListParams extends ListParams {
  tax_relation?: 'AND' | 'OR' | undefined;
  wp_pattern_category?: TermFilter | undefined;
  wp_pattern_category_exclude?: TermFilter | undefined;
}

/** List parameters of templates and template parts (not paginated). @group Docs site */
export interface TemplateListParams extends ContextParams {
  wp_id?: number | undefined;
  area?: string | undefined;
  post_type?: string | undefined;
}

/** Parameters of `GET /templates/lookup`. @group Docs site */
export interface TemplateLookupParams {
  _fields?: string | string[] | undefined;
  _embed?: boolean | string | string[] | undefined;
  /** The slug to find the fallback template of. */
  slug: string;
  is_custom?: boolean | undefined;
  template_prefix?: string | undefined;
}

/** List parameters of revisions. @group Docs site */
export interface RevisionListParams extends ContextParams {
  page?: number | undefined;
  /** 1 to 100. */
  per_page?: number | undefined;
  search?: string | undefined;
  exclude?: number[] | undefined;
  include?: number[] | undefined;
  offset?: number | undefined;
  order?: 'asc' | 'desc' | undefined;
  orderby?: 'date' | 'id' | 'include' | 'relevance' | 'slug' | 'include_slugs' | 'title' | undefined;
}

/** A text field sent as a string or as `{ raw }`. */
export type RawText = string | { raw: string; [key: string]: unknown };

/** Fields every content body (posts, pages, media, blocks) shares; unknown fields are sent as given. */
export interface ContentBody {
  date?: DateTimeInput | null | undefined;
  date_gmt?: DateTimeInput | null | undefined;
  slug?: string | undefined;
  status?: ContentStatus | undefined;
  password?: string | undefined;
  title?: RawText | undefined;
  content?: RawText | undefined;
  excerpt?: RawText | undefined;
  author?: number | undefined;
  featured_media?: number | undefined;
  comment_status?: 'open' | 'closed' | undefined;
  ping_status?: 'open' | 'closed' | undefined;
  meta?: Record<string, unknown> | undefined;
  template?: string | undefined;
  [key: string]: unknown;
}

/** Body of a post create or update. @group Docs site */
export interface PostBody extends ContentBody {
  format?: PostFormat | undefined;
  sticky?: boolean | undefined;
  categories?: number[] | undefined;
  tags?: number[] | undefined;
}

/** Body of a page create or update. @group Docs site */
export interface PageBody extends ContentBody {
  parent?: number | undefined;
  menu_order?: number | undefined;
}

/** Body of a media update (and the fields of an upload). @group Docs site */
export interface MediaBody extends ContentBody {
  alt_text?: string | undefined;
  caption?: RawText | undefined;
  description?: RawText | undefined;
  post?: number | undefined;
}

/** Body of a reusable block create or update. @group Docs site */
export interface BlockBody extends ContentBody {
  wp_pattern_category?: number[] | undefined;
  meta?:
    | { wp_pattern_sync_status?: 'partial' | 'unsynced' | '' | undefined; [key: string]: unknown }
    | undefined;
}

/** Body of a menu item create or update. @group Docs site */
export interface MenuItemBody {
  title?: RawText | undefined;
  /** Default `custom`. */
  type?: 'taxonomy' | 'post_type' | 'post_type_archive' | 'custom' | undefined;
  status?: ContentStatus | undefined;
  parent?: number | undefined;
  attr_title?: string | undefined;
  classes?: string[] | undefined;
  description?: string | undefined;
  /** From 1. */
  menu_order?: number | undefined;
  object?: string | undefined;
  object_id?: number | undefined;
  target?: '_blank' | '' | undefined;
  /** An absolute URL, or empty. */
  url?: string | undefined;
  xfn?: string[] | undefined;
  menus?: number | undefined;
  meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

/** Fields of a template or template-part update; `slug` is letters, digits, `_`, `%`, `-`. @group Docs site */
export interface TemplateUpdateBody {
  slug?: string | undefined;
  theme?: string | undefined;
  type?: string | undefined;
  content?: RawText | undefined;
  title?: RawText | undefined;
  description?: string | undefined;
  status?: ContentStatus | undefined;
  author?: number | undefined;
  [key: string]: unknown;
}

/** Body of a template create (`slug` required). @group Docs site */
export interface TemplateCreateBody extends TemplateUpdateBody {
  slug: string;
}

/** Body of a template-part update. @group Docs site */
export interface TemplatePartUpdateBody extends TemplateUpdateBody {
  area?: string | undefined;
}

/** Body of a template-part create (`slug` required). @group Docs site */
export interface TemplatePartCreateBody extends TemplatePartUpdateBody {
  slug: string;
}

/** One media edit modifier: flip, rotate (degrees clockwise) or crop (percentages). @group Docs site */
export type MediaModifier =
  | { type: 'flip'; args: { flip: { horizontal: boolean; vertical: boolean } } }
  | { type: 'rotate'; args: { angle: number } }
  | { type: 'crop'; args: { left: number; top: number; width: number; height: number } };

/** Body of `POST /media/{id}/edit`. @group Docs site */
export interface MediaEditBody {
  /** The address of the image to edit. */
  src: string;
  /** At least one. */
  modifiers?: MediaModifier[] | undefined;
  /** @deprecated use a rotate modifier. An integer from 1 to 359. */
  rotation?: number | undefined;
  /** @deprecated use a crop modifier. 0 to 100. */
  x?: number | undefined;
  /** @deprecated use a crop modifier. 0 to 100. */
  y?: number | undefined;
  /** @deprecated use a crop modifier. 0 to 100. */
  width?: number | undefined;
  /** @deprecated use a crop modifier. 0 to 100. */
  height?: number | undefined;
  caption?: string | undefined;
  description?: string | undefined;
  title?: string | undefined;
  post?: number | undefined;
  alt_text?: string | undefined;
  [key: string]: unknown;
}

/** Body of `POST /media/{id}/post-process`. @group Docs site */
export interface MediaPostProcessBody {
  action: 'create-image-subsizes';
}

/** Parameters of `GET /oembed/1.0/embed`. @group Docs site */
export interface OEmbedEmbedParams {
  /** The address of a page of this site. */
  url: string;
  /** Default `json`; with `xml` the answer is returned as text. */
  format?: 'json' | 'xml' | undefined;
  /** Default 600. */
  maxwidth?: number | undefined;
}

/** Parameters of `GET /oembed/1.0/proxy`. @group Docs site */
export interface OEmbedProxyParams extends OEmbedEmbedParams {
  maxheight?: number | undefined;
  /** Default `true`. */
  discover?: boolean | undefined;
}

/** Options of a delete. @group Docs site */
export interface DeleteOptions {
  /** Delete for good instead of moving to the trash. Default `false` (the site's default). */
  force?: boolean | undefined;
}

/** Options of an update. @group Docs site */
export interface UpdateOptions {
  /** The method used; the site accepts POST, PUT and PATCH for updates. Default `POST`. */
  method?: 'POST' | 'PUT' | 'PATCH' | undefined;
}
