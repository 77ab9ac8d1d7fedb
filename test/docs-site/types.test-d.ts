import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { oembedEmbedSchema, oembedProxySchema, oembedSchema } from '../../src/docs-site/oembed.js';
import type {
  blockBodySchema,
  mediaBodySchema,
  menuItemBodySchema,
  pageBodySchema,
  postBodySchema,
  templateCreateSchema,
  templatePartCreateSchema,
  templatePartUpdateSchema,
  templateUpdateSchema,
} from '../../src/docs-site/params/bodies.js';
import type {
  blockListSchema,
  contextOnlySchema,
  itemReadWithPasswordSchema,
  mediaListSchema,
  menuItemListSchema,
  pageListSchema,
  postListSchema,
  revisionListSchema,
  templateListSchema,
  templateLookupSchema,
} from '../../src/docs-site/params/list.js';
import type {
  mediaEditSchema,
  mediaModifierSchema,
  mediaPostProcessSchema,
} from '../../src/docs-site/params/media-edit.js';
import type {
  blockSchema,
  mediaSchema,
  menuItemSchema,
  pageSchema,
  postSchema,
  revisionSchema,
  templateRevisionSchema,
  templateSchema,
} from '../../src/docs-site/schemas/content.js';
import type {
  indexSchema,
  namespaceIndexSchema,
  routeSchema,
} from '../../src/docs-site/schemas/index-document.js';
import type { currentUserSchema } from '../../src/docs-site/schemas/user.js';
import {
  type BatchResult,
  type Block,
  type BlockBody,
  type BlockListParams,
  type ContextParams,
  type CurrentUser,
  DocsSiteClient,
  type DocsSiteIndex,
  type DocsSiteRoute,
  type ItemReadParams,
  type Media,
  type MediaBody,
  type MediaEditBody,
  type MediaListParams,
  type MediaModifier,
  type MediaPostProcessBody,
  type MenuItem,
  type MenuItemBody,
  type MenuItemListParams,
  type NamespaceIndex,
  type OEmbed,
  type OEmbedEmbedParams,
  type OEmbedProxyParams,
  type Page,
  type PageBody,
  type PageListParams,
  type Post,
  type PostBody,
  type PostListParams,
  type Revision,
  type RevisionListParams,
  type SitePage,
  type Template,
  type TemplateCreateBody,
  type TemplateListParams,
  type TemplateLookupParams,
  type TemplatePartCreateBody,
  type TemplatePartUpdateBody,
  type TemplateRevision,
  type TemplateUpdateBody,
} from '../../src/docs-site.js';

const docs = new DocsSiteClient({ baseUrl: 'https://docs.example.org' });

describe('public types of the docs-site client', () => {
  it('types lists, items and batch results', () => {
    expectTypeOf(docs.posts.list()).resolves.toEqualTypeOf<Page<Post>>();
    expectTypeOf(docs.pages.get(1)).resolves.toEqualTypeOf<SitePage>();
    expectTypeOf(docs.media.upload(new Uint8Array(), { filename: 'a.png' })).resolves.toEqualTypeOf<Media>();
    expectTypeOf(docs.templates.get('t//x')).resolves.toEqualTypeOf<Template>();
    expectTypeOf(docs.batch([])).resolves.toEqualTypeOf<BatchResult[]>();
    expectTypeOf(docs.posts.iterate()).toEqualTypeOf<AsyncIterable<Post>>();
    expectTypeOf(docs.posts.parse({})).toEqualTypeOf<Post>();
    expectTypeOf(DocsSiteClient.connect).returns.resolves.toEqualTypeOf<DocsSiteClient>();
  });

  it('rejects what the interface does not have, at compile time', () => {
    // @ts-expect-error menu items have autosaves but no revisions
    docs.menuItems.revisions(1);
    // @ts-expect-error media is not batch-capable
    docs.media.batchCreate({});
    // @ts-expect-error templates are not paginated: no iterate()
    docs.templates.iterate();
    // @ts-expect-error menu_order ordering is for pages and menu items only
    docs.posts.list({ orderby: 'menu_order' });
    // @ts-expect-error revisions can only be deleted with force: true
    docs.posts.revisions(1).delete(2, { force: false });
    // @ts-expect-error template ids are strings
    docs.templates.get(5);
    // @ts-expect-error per_page is a number
    docs.pages.list({ per_page: '10' });
    // @ts-expect-error a template create needs a slug
    docs.templates.create({ title: 'x' });
    // @ts-expect-error connect() is a static factory, not an instance method
    docs.connect();
  });
});

/*
 * The public interfaces are generated from the zod schemas that check values at run time (which stay
 * inside): scripts/docs-site-types.ts, checked current by types-generated.test.ts.
 * These assertions keep the two in step, both ways: what a schema lets through has the interface's
 * type, and the interface promises nothing the schema does not check.
 */
describe('the plain interfaces agree with the schemas', () => {
  it('answers: z.output of the schema and the interface extend each other', () => {
    expectTypeOf<z.output<typeof postSchema>>().toExtend<Post>();
    expectTypeOf<Post>().toExtend<z.output<typeof postSchema>>();
    expectTypeOf<z.output<typeof pageSchema>>().toExtend<SitePage>();
    expectTypeOf<SitePage>().toExtend<z.output<typeof pageSchema>>();
    expectTypeOf<z.output<typeof mediaSchema>>().toExtend<Media>();
    expectTypeOf<Media>().toExtend<z.output<typeof mediaSchema>>();
    expectTypeOf<z.output<typeof menuItemSchema>>().toExtend<MenuItem>();
    expectTypeOf<MenuItem>().toExtend<z.output<typeof menuItemSchema>>();
    expectTypeOf<z.output<typeof blockSchema>>().toExtend<Block>();
    expectTypeOf<Block>().toExtend<z.output<typeof blockSchema>>();
    expectTypeOf<z.output<typeof templateSchema>>().toExtend<Template>();
    expectTypeOf<Template>().toExtend<z.output<typeof templateSchema>>();
    expectTypeOf<z.output<typeof templateRevisionSchema>>().toExtend<TemplateRevision>();
    expectTypeOf<TemplateRevision>().toExtend<z.output<typeof templateRevisionSchema>>();
    expectTypeOf(docs.templates.revisions('t//x').list()).resolves.toEqualTypeOf<Page<TemplateRevision>>();
    expectTypeOf(docs.templateParts.autosaves('t//x').get(1)).resolves.toEqualTypeOf<TemplateRevision>();
    expectTypeOf(docs.posts.revisions(1).get(2)).resolves.toEqualTypeOf<Revision>();
    expectTypeOf<Template['modified']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<z.output<typeof revisionSchema>>().toExtend<Revision>();
    expectTypeOf<Revision>().toExtend<z.output<typeof revisionSchema>>();
    expectTypeOf<z.output<typeof currentUserSchema>>().toExtend<CurrentUser>();
    expectTypeOf<CurrentUser>().toExtend<z.output<typeof currentUserSchema>>();
    expectTypeOf<z.output<typeof indexSchema>>().toExtend<DocsSiteIndex>();
    expectTypeOf<DocsSiteIndex>().toExtend<z.output<typeof indexSchema>>();
    expectTypeOf<z.output<typeof routeSchema>>().toExtend<DocsSiteRoute>();
    expectTypeOf<DocsSiteRoute>().toExtend<z.output<typeof routeSchema>>();
    expectTypeOf<z.output<typeof namespaceIndexSchema>>().toExtend<NamespaceIndex>();
    expectTypeOf<NamespaceIndex>().toExtend<z.output<typeof namespaceIndexSchema>>();
    expectTypeOf<z.output<typeof oembedSchema>>().toExtend<OEmbed>();
    expectTypeOf<OEmbed>().toExtend<z.output<typeof oembedSchema>>();
  });

  it('parameters: z.input of the schema and the interface extend each other', () => {
    expectTypeOf<PostListParams>().toExtend<z.input<typeof postListSchema>>();
    expectTypeOf<z.input<typeof postListSchema>>().toExtend<PostListParams>();
    expectTypeOf<PageListParams>().toExtend<z.input<typeof pageListSchema>>();
    expectTypeOf<z.input<typeof pageListSchema>>().toExtend<PageListParams>();
    expectTypeOf<MediaListParams>().toExtend<z.input<typeof mediaListSchema>>();
    expectTypeOf<z.input<typeof mediaListSchema>>().toExtend<MediaListParams>();
    expectTypeOf<MenuItemListParams>().toExtend<z.input<typeof menuItemListSchema>>();
    expectTypeOf<z.input<typeof menuItemListSchema>>().toExtend<MenuItemListParams>();
    expectTypeOf<BlockListParams>().toExtend<z.input<typeof blockListSchema>>();
    expectTypeOf<z.input<typeof blockListSchema>>().toExtend<BlockListParams>();
    expectTypeOf<TemplateListParams>().toExtend<z.input<typeof templateListSchema>>();
    expectTypeOf<z.input<typeof templateListSchema>>().toExtend<TemplateListParams>();
    expectTypeOf<TemplateLookupParams>().toExtend<z.input<typeof templateLookupSchema>>();
    expectTypeOf<z.input<typeof templateLookupSchema>>().toExtend<TemplateLookupParams>();
    expectTypeOf<RevisionListParams>().toExtend<z.input<typeof revisionListSchema>>();
    expectTypeOf<z.input<typeof revisionListSchema>>().toExtend<RevisionListParams>();
    expectTypeOf<ContextParams>().toExtend<z.input<typeof contextOnlySchema>>();
    expectTypeOf<z.input<typeof contextOnlySchema>>().toExtend<ContextParams>();
    expectTypeOf<ItemReadParams>().toExtend<z.input<typeof itemReadWithPasswordSchema>>();
    expectTypeOf<z.input<typeof itemReadWithPasswordSchema>>().toExtend<ItemReadParams>();
    expectTypeOf<OEmbedEmbedParams>().toExtend<z.input<typeof oembedEmbedSchema>>();
    expectTypeOf<z.input<typeof oembedEmbedSchema>>().toExtend<OEmbedEmbedParams>();
    expectTypeOf<OEmbedProxyParams>().toExtend<z.input<typeof oembedProxySchema>>();
    expectTypeOf<z.input<typeof oembedProxySchema>>().toExtend<OEmbedProxyParams>();
  });

  it('bodies: z.input of the schema and the interface extend each other', () => {
    expectTypeOf<PostBody>().toExtend<z.input<typeof postBodySchema>>();
    expectTypeOf<z.input<typeof postBodySchema>>().toExtend<PostBody>();
    expectTypeOf<PageBody>().toExtend<z.input<typeof pageBodySchema>>();
    expectTypeOf<z.input<typeof pageBodySchema>>().toExtend<PageBody>();
    expectTypeOf<MediaBody>().toExtend<z.input<typeof mediaBodySchema>>();
    expectTypeOf<z.input<typeof mediaBodySchema>>().toExtend<MediaBody>();
    expectTypeOf<BlockBody>().toExtend<z.input<typeof blockBodySchema>>();
    expectTypeOf<z.input<typeof blockBodySchema>>().toExtend<BlockBody>();
    expectTypeOf<MenuItemBody>().toExtend<z.input<typeof menuItemBodySchema>>();
    expectTypeOf<z.input<typeof menuItemBodySchema>>().toExtend<MenuItemBody>();
    expectTypeOf<TemplateCreateBody>().toExtend<z.input<typeof templateCreateSchema>>();
    expectTypeOf<z.input<typeof templateCreateSchema>>().toExtend<TemplateCreateBody>();
    expectTypeOf<TemplateUpdateBody>().toExtend<z.input<typeof templateUpdateSchema>>();
    expectTypeOf<z.input<typeof templateUpdateSchema>>().toExtend<TemplateUpdateBody>();
    expectTypeOf<TemplatePartCreateBody>().toExtend<z.input<typeof templatePartCreateSchema>>();
    expectTypeOf<z.input<typeof templatePartCreateSchema>>().toExtend<TemplatePartCreateBody>();
    expectTypeOf<TemplatePartUpdateBody>().toExtend<z.input<typeof templatePartUpdateSchema>>();
    expectTypeOf<z.input<typeof templatePartUpdateSchema>>().toExtend<TemplatePartUpdateBody>();
    expectTypeOf<MediaModifier>().toExtend<z.input<typeof mediaModifierSchema>>();
    expectTypeOf<z.input<typeof mediaModifierSchema>>().toExtend<MediaModifier>();
    expectTypeOf<MediaEditBody>().toExtend<z.input<typeof mediaEditSchema>>();
    expectTypeOf<z.input<typeof mediaEditSchema>>().toExtend<MediaEditBody>();
    expectTypeOf<MediaPostProcessBody>().toExtend<z.input<typeof mediaPostProcessSchema>>();
    expectTypeOf<z.input<typeof mediaPostProcessSchema>>().toExtend<MediaPostProcessBody>();
  });
});
