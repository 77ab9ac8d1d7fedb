import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makePng } from './helpers.js';

/**
 * Writes a folder of 30 Markdown pages in a hierarchy, with local images:
 *
 * - `welcome.md`, and `about.md` whose front matter names `welcome` as its parent;
 * - four sections `s1`…`s4`, each `sN/index.md` (the section page, with the section's picture and a
 *   table), four pages `sN/pK.md` (children by folder, each with the shared logo), and a sub-section
 *   `sN/deep/index.md` with one page `sN/deep/leaf.md` (grand-children).
 *
 * Five distinct images: the logo (referenced by 16 pages and as `welcome`'s featured image, uploaded
 * once) and one per section. Slugs carry `token` so that runs never meet.
 */
export async function writeHierarchy(dir: string, token: string): Promise<string[]> {
  const files: Record<string, string> = {};
  files['welcome.md'] = page(
    { title: `Welcome ${token}`, slug: `${token}-welcome`, featured_image: 'images/logo.png' },
    `# Welcome\n\nStart here. ![logo](images/logo.png)\n`,
  );
  files['about.md'] = page(
    { title: `About ${token}`, slug: `${token}-about`, parent: `${token}-welcome`, menu_order: 2 },
    'About *this* documentation.\n',
  );
  for (let s = 1; s <= 4; s++) {
    files[`s${s}/index.md`] = page(
      { title: `Section ${s} ${token}`, slug: `${token}-s${s}`, menu_order: s },
      `# Section ${s}\n\n![Section ${s}](../images/section-${s}.png)\n\n| step | what |\n|---|---|\n| 1 | install |\n| 2 | configure |\n`,
    );
    for (let p = 1; p <= 4; p++) {
      files[`s${s}/p${p}.md`] = page(
        { title: `Page ${s}.${p} ${token}`, slug: `${token}-s${s}-p${p}`, menu_order: p },
        `Page ${s}.${p}.\n\n![logo](../images/logo.png "The logo")\n\n- one\n- two\n`,
      );
    }
    files[`s${s}/deep/index.md`] = page(
      { title: `Deep ${s} ${token}`, slug: `${token}-s${s}-deep` },
      'Deeper.\n',
    );
    files[`s${s}/deep/leaf.md`] = page(
      { title: `Leaf ${s} ${token}`, slug: `${token}-s${s}-leaf` },
      'A leaf.\n',
    );
  }
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  await mkdir(join(dir, 'images'), { recursive: true });
  await writeFile(join(dir, 'images', 'logo.png'), makePng(40, 20));
  for (let s = 1; s <= 4; s++) await writeFile(join(dir, 'images', `section-${s}.png`), makePng(30 + s, 30));
  return Object.keys(files);
}

function page(meta: Record<string, string | number>, body: string): string {
  const yaml = Object.entries(meta)
    .map(([k, v]) => `${k}: ${typeof v === 'number' ? v : JSON.stringify(v)}`)
    .join('\n');
  return `---\n${yaml}\n---\n${body}`;
}
