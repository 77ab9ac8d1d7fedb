import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../../src/docs-site.js';
import { atLeast, makeClient, makePng, uniqueToken } from './helpers.js';

const docs = makeClient();
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function fetchBytes(url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('media against WordPress', () => {
  it('uploads a PNG from bytes, stores it unchanged with its sub-sizes, and deletes it with its file', async () => {
    const png = makePng(300, 200);
    const name = `${uniqueToken('logo')}.png`;
    const media = await docs.media.upload(png, {
      filename: name,
      contentType: 'image/png',
      fields: { alt_text: 'A gradient', title: 'Gradient' },
    });

    expect(media.id).toBeGreaterThan(0);
    expect(media.mime_type).toBe('image/png');
    expect(media.media_type).toBe('image');
    expect(media.alt_text).toBe('A gradient');
    expect(media.title).toMatchObject({ raw: 'Gradient' });
    expect(media.media_details).toMatchObject({ width: 300, height: 200 });
    // php-gd made the 150×150 thumbnail.
    expect(media.media_details).toMatchObject({ sizes: { thumbnail: { width: 150, height: 150 } } });
    expect(media.source_url?.endsWith(`/${name}`)).toBe(true);

    const stored = await fetchBytes(media.source_url!);
    expect(stored.status).toBe(200);
    expect(stored.bytes.equals(png)).toBe(true);

    const updated = await docs.media.update(media.id, {
      alt_text: 'Still a gradient',
      caption: 'Made in a test',
    });
    expect(updated.alt_text).toBe('Still a gradient');

    // media_type and mime_type are arrays in the interface and on WordPress 6.9+, one string before:
    // a one-item list goes out as a plain value (every release), a longer one as an array, which
    // releases before 6.9 refuse (the error says so) rather than ignore.
    const listed = await docs.media.list({ media_type: ['image'], include: [media.id] });
    expect(listed.items.map((m) => m.id)).toEqual([media.id]);
    expect((await docs.media.list({ media_type: 'audio', include: [media.id] })).total).toBe(0);
    const byMime = await docs.media.list({ mime_type: ['image/png'], include: [media.id] });
    expect(byMime.items.map((m) => m.id)).toEqual([media.id]);
    expect((await docs.media.list({ mime_type: 'image/gif', include: [media.id] })).total).toBe(0);
    const severalTypes = () => docs.media.list({ media_type: ['audio', 'image'], include: [media.id] });
    const severalMimes = () =>
      docs.media.list({ mime_type: ['image/gif', 'image/png'], include: [media.id] });
    if (atLeast('6.9')) {
      expect((await severalTypes()).items.map((m) => m.id)).toEqual([media.id]);
      expect((await severalMimes()).items.map((m) => m.id)).toEqual([media.id]);
      expect((await docs.media.list({ media_type: ['audio', 'video'], include: [media.id] })).total).toBe(0);
      expect(
        (await docs.media.list({ mime_type: ['image/gif', 'image/jpeg'], include: [media.id] })).total,
      ).toBe(0);
    } else {
      for (const [param, several] of [
        ['media_type', severalTypes],
        ['mime_type', severalMimes],
      ] as const) {
        const refused = await several().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(refused).toBeInstanceOf(DocsSiteError);
        expect((refused as DocsSiteError).code).toBe('rest_invalid_param');
        expect((refused as DocsSiteError).message).toContain(
          `"${param}": this site takes one value per request`,
        );
      }
    }

    // Attachments have no trash on a stock site: the site refuses a delete without force.
    const refused = await docs.media.delete(media.id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(DocsSiteError);
    expect((refused as DocsSiteError).status).toBe(501);
    expect((refused as DocsSiteError).code).toBe('rest_trash_not_supported');

    const deleted = await docs.media.delete(media.id, { force: true });
    expect(deleted.deleted).toBe(true);
    expect(deleted.item.id).toBe(media.id);
    const missing = await docs.media.get(media.id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((missing as DocsSiteError).status).toBe(404);
    expect((await fetchBytes(media.source_url!)).status).toBe(404);
  });

  it('uploads from a file path (name and type from the path) and from a Blob', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'afv-media-'));
    dirs.push(dir);
    const path = join(dir, `${uniqueToken('file')}.png`);
    await writeFile(path, makePng(40, 30));
    const fromPath = await docs.media.upload(path);
    expect(fromPath.mime_type).toBe('image/png');
    expect(fromPath.media_details).toMatchObject({ width: 40, height: 30 });

    const blob = new Blob([new Uint8Array(makePng(20, 10))], { type: 'image/png' });
    const fromBlob = await docs.media.upload(blob, { filename: `${uniqueToken('blob')}.png` });
    expect(fromBlob.media_details).toMatchObject({ width: 20, height: 10 });

    for (const m of [fromPath, fromBlob])
      expect((await docs.media.delete(m.id, { force: true })).deleted).toBe(true);
  });

  it('edits an image (rotate) into a new attachment, and post-processes an upload', async () => {
    const original = await docs.media.upload(makePng(300, 200), {
      filename: `${uniqueToken('edit')}.png`,
      contentType: 'image/png',
    });
    const rotated = await docs.media.edit(original.id, {
      src: original.source_url!,
      modifiers: [{ type: 'rotate', args: { angle: 90 } }],
    });
    expect(rotated.id).not.toBe(original.id);
    expect(rotated.media_details).toMatchObject({ width: 200, height: 300 });

    const processed = await docs.media.postProcess(original.id);
    expect(processed.id).toBe(original.id);

    for (const m of [rotated, original])
      expect((await docs.media.delete(m.id, { force: true })).deleted).toBe(true);
  });

  it('refuses a media route in a batch before anything is sent', async () => {
    const error = await docs.batch([{ method: 'DELETE', path: '/wp/v2/media/1?force=true' }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DocsSiteError);
    expect((error as DocsSiteError).code).toBe('invalid_batch');
  });
});
