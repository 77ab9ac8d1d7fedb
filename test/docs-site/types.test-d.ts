import { describe, expectTypeOf, it } from 'vitest';
import {
  type BatchResult,
  DocsSiteClient,
  type Media,
  type Page,
  type Post,
  type Template,
} from '../../src/docs-site.js';

const docs = new DocsSiteClient({ baseUrl: 'https://docs.example.org' });

describe('public types of the docs-site client', () => {
  it('types lists, items and batch results', () => {
    expectTypeOf(docs.posts.list()).resolves.toEqualTypeOf<Page<Post>>();
    expectTypeOf(docs.media.upload(new Uint8Array(), { filename: 'a.png' })).resolves.toEqualTypeOf<Media>();
    expectTypeOf(docs.templates.get('t//x')).resolves.toEqualTypeOf<Template>();
    expectTypeOf(docs.batch([])).resolves.toEqualTypeOf<BatchResult[]>();
    expectTypeOf(docs.posts.iterate()).toEqualTypeOf<AsyncIterable<Post>>();
  });

  it('rejects what the interface does not have, at compile time', () => {
    // @ts-expect-error menu items have autosaves but no revisions
    docs.menuItems.revisions(1);
    // @ts-expect-error media is not batch-capable
    docs.media.batchCreate({});
    // @ts-expect-error menu_order ordering is for pages and menu items only
    docs.posts.list({ orderby: 'menu_order' });
    // @ts-expect-error revisions can only be deleted with force: true
    docs.posts.revisions(1).delete(2, { force: false });
    // @ts-expect-error template ids are strings
    docs.templates.get(5);
    // @ts-expect-error per_page is a number
    docs.pages.list({ per_page: '10' });
  });
});
