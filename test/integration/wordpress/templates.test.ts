import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../../src/docs-site.js';
import { makeClient, site, uniqueToken } from './helpers.js';

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

    it('sends template revisions to the slashed-id route; WordPress 6.1 only routes integer parents there (404)', async () => {
      // 6.1 registers /templates/(?P<parent>[\d]+)/revisions: the request is well formed, the site
      // has no such route for a string id. The client reports that, never an empty success.
      const error = await rejection(docs.templates.revisions(`${theme}//index`).list());
      expect(error.status).toBe(404);
      expect(error.code).toBe('rest_template_not_found');
    });
  },
);
