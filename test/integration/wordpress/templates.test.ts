import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../../src/docs-site.js';
import { atLeast, makeClient, site, uniqueToken } from './helpers.js';

const docs = makeClient();
const theme = site.theme;
const paragraph = (text: string) => `<!-- wp:paragraph --><p>${text}</p><!-- /wp:paragraph -->`;

async function rejection(promise: Promise<unknown>): Promise<DocsSiteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocsSiteError);
  return error as DocsSiteError;
}

// Debian's wordpress-theme-twentytwentythree (installed by scripts/wordpress/install.sh) is a block
// theme, so the site has block templates with `theme//slug` ids.
describe.skipIf(!site.blockTheme)(
  `templates of the block theme (skipped when the active theme "${theme}" is not a block theme)`,
  () => {
    it('lists the theme templates (not paginated) with theme//slug ids', async () => {
      const page = await docs.templates.list({ context: 'edit' });
      const ids = page.items.map((t) => t.id);
      expect(ids).toEqual(expect.arrayContaining([`${theme}//index`, `${theme}//single`, `${theme}//page`]));
      expect(ids.every((id) => id.startsWith(`${theme}//`))).toBe(true);
      // No pagination headers: one page holding everything.
      expect(page.total).toBe(page.items.length);
      expect(page.totalPages).toBe(1);
      // A template that is only the theme's file has no modification date: 6.8 sends false, 7.x
      // null (both given as null); 6.1 leaves the field out.
      const index = page.items.find((t) => t.id === `${theme}//index`);
      expect(index?.source).toBe('theme');
      expect(index?.modified).toBe(atLeast('6.8') ? null : undefined);
    });

    it('lists templates and template parts with context=embed (content arrives as [])', async () => {
      const templates = await docs.templates.list({ context: 'embed' });
      expect(templates.items.find((t) => t.id === `${theme}//index`)?.content).toEqual({});
      const parts = await docs.templateParts.list({ context: 'embed' });
      expect(parts.items.map((p) => p.id)).toContain(`${theme}//header`);
    });

    it('gets a template by its theme//slug id, customizes it and reverts it', async () => {
      const id = `${theme}//single`;
      const original = await docs.templates.get(id, { context: 'edit' });
      expect(original.id).toBe(id);
      expect(original.source).toBe('theme');

      const text = uniqueToken('custom');
      const customized = await docs.templates.update(id, { content: paragraph(text) });
      expect(customized.id).toBe(id);
      expect(customized.source).toBe('custom');
      expect(customized.wp_id).toBeGreaterThan(0);
      expect((await docs.templates.get(id, { context: 'edit' })).content).toMatchObject({
        raw: paragraph(text),
      });

      // Deleting the customization for good brings back the theme's file.
      const reverted = await docs.templates.delete(id, { force: true });
      expect(reverted.deleted).toBe(true);
      expect(reverted.item.id).toBe(id);
      const back = await docs.templates.get(id, { context: 'edit' });
      expect(back.source).toBe('theme');
      // A template that is only the theme's file cannot be deleted.
      const refused = await rejection(docs.templates.delete(id, { force: true }));
      expect(refused.status).toBe(400);
      expect(refused.code).toBe('rest_invalid_template');
      expect(refused.message).toContain("only the theme's file, which cannot be deleted");
    });

    it('creates a custom template (its id gets the theme prefix) and deletes it', async () => {
      const slug = uniqueToken('afv-template-');
      const created = await docs.templates.create({
        slug,
        title: 'Created by a test',
        content: paragraph('mine'),
      });
      expect(created.id).toBe(`${theme}//${slug}`);
      expect(created.source).toBe('custom');
      expect((await docs.templates.get(created.id)).slug).toBe(slug);

      const deleted = await docs.templates.delete(created.id, { force: true });
      expect(deleted.deleted).toBe(true);
      const missing = await rejection(docs.templates.get(created.id));
      expect(missing.status).toBe(404);
      expect(missing.code).toBe('rest_template_not_found');
    });

    it('looks a template up by slug, with the theme hierarchy fallback', async () => {
      const found = await docs.templates.lookup({ slug: 'front-page' });
      expect(found.id).toBe(`${theme}//home`);
    });

    it('lists template parts with their areas', async () => {
      const parts = await docs.templateParts.list({ context: 'edit' });
      const header = parts.items.find((p) => p.id === `${theme}//header`);
      expect(header?.area).toBe('header');
      expect((await docs.templateParts.get(`${theme}//footer`)).area).toBe('footer');
    });

    it.skipIf(atLeast('6.4'))(
      'sends template revisions to the slashed-id route; WordPress 6.1 only routes integer parents there (404) (skipped on 6.4+, which routes them)',
      async () => {
        // 6.1 registers /templates/(?P<parent>[\d]+)/revisions: the request is well formed, the site
        // has no such route for a string id. The client reports that, never an empty success.
        const error = await rejection(docs.templates.revisions(`${theme}//index`).list());
        expect(error.status).toBe(404);
        expect(error.code).toBe('rest_template_not_found');
      },
    );

    it.skipIf(!atLeast('6.4'))(
      'a theme-file template has no revisions or autosaves: 400 rest_invalid_template, explained (skipped before 6.4, no such routes)',
      async () => {
        for (const call of [
          () => docs.templates.revisions(`${theme}//index`).list(),
          () => docs.templates.autosaves(`${theme}//index`).list(),
          () => docs.templateParts.revisions(`${theme}//header`).list(),
        ]) {
          const error = await rejection(call());
          expect(error.status).toBe(400);
          expect(error.code).toBe('rest_invalid_template');
          expect(error.message).toContain("only the theme's file");
        }
      },
    );

    it.skipIf(!atLeast('6.4'))(
      'revisions and autosaves of a customized template are shaped like templates (skipped before 6.4, no such routes)',
      async () => {
        const id = `${theme}//page`;
        const first = await docs.templates.update(id, { content: paragraph(uniqueToken('one')) });
        const second = await docs.templates.update(id, { content: paragraph(uniqueToken('two')) });
        expect(second.wp_id).toBe(first.wp_id);
        expect(typeof second.modified).toBe('string');
        try {
          const revisions = await docs.templates.revisions(id).list({ context: 'edit' });
          expect(revisions.items.length).toBeGreaterThanOrEqual(1);
          const newest = revisions.items[0]!;
          expect(newest.id).toBe(id);
          expect(newest.parent).toBe(second.wp_id);
          expect(newest.content).toMatchObject({ raw: (second.content as { raw?: string }).raw });
          const one = await docs.templates.revisions(id).get(newest.wp_id!);
          expect(one.wp_id).toBe(newest.wp_id);

          const autosave = await docs.templates.autosaves(id).create({ content: paragraph('draft') });
          expect(autosave).toMatchObject({ id, parent: second.wp_id });
          expect((await docs.templates.autosaves(id).list()).items.map((a) => a.wp_id)).toContain(
            autosave.wp_id,
          );

          const removed = await docs.templates.revisions(id).delete(newest.wp_id!, { force: true });
          expect(removed.deleted).toBe(true);
        } finally {
          await docs.templates.delete(id, { force: true });
        }
      },
    );
  },
);
