import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DocsSiteError, type MediaListParams } from '../../src/docs-site.js';
import { client, HttpResponse, http, ROOT, useServer, wpError } from './helpers.js';

const server = useServer();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

interface Upload {
  contentType: string | null;
  disposition: string | null;
  bytes: Uint8Array;
  query: Record<string, string>;
}

function uploadSite() {
  const uploads: Upload[] = [];
  server.use(
    http.post(`${ROOT}/cms/v2/media`, async ({ request }) => {
      uploads.push({
        contentType: request.headers.get('content-type'),
        disposition: request.headers.get('content-disposition'),
        bytes: new Uint8Array(await request.arrayBuffer()),
        query: Object.fromEntries(new URL(request.url).searchParams),
      });
      return HttpResponse.json(
        {
          id: 40 + uploads.length,
          media_type: 'image',
          mime_type: 'image/png',
          source_url: 'https://x/a.png',
          meta: [],
        },
        { status: 201 },
      );
    }),
  );
  return uploads;
}

describe('media.upload()', () => {
  it('uploads a file path, guessing the type from the extension, with fields in the query', async () => {
    const uploads = uploadSite();
    const dir = await mkdtemp(join(tmpdir(), 'docs-upload-'));
    const file = join(dir, 'logo.png');
    await writeFile(file, PNG);
    const media = await client().media.upload(file, {
      fields: { alt_text: 'Logo', title: 'Our logo', post: 3 },
    });
    expect(media.id).toBe(41);
    expect(uploads[0]).toMatchObject({
      contentType: 'image/png',
      disposition: 'attachment; filename="logo.png"',
      query: { alt_text: 'Logo', title: 'Our logo', post: '3' },
    });
    expect([...uploads[0]!.bytes]).toEqual([...PNG]);
  });

  it('uploads a Buffer with a file name and type', async () => {
    const uploads = uploadSite();
    await client().media.upload(Buffer.from('%PDF-1.4'), {
      filename: 'guide.pdf',
      contentType: 'application/pdf',
    });
    expect(uploads[0]).toMatchObject({
      contentType: 'application/pdf',
      disposition: 'attachment; filename="guide.pdf"',
    });
    expect(new TextDecoder().decode(uploads[0]!.bytes)).toBe('%PDF-1.4');
  });

  it('uploads a File (Blob with a name and a type)', async () => {
    const uploads = uploadSite();
    await client().media.upload(new File([PNG], 'photo.webp', { type: 'image/webp' }));
    expect(uploads[0]).toMatchObject({
      contentType: 'image/webp',
      disposition: 'attachment; filename="photo.webp"',
    });
  });

  it('uploads a Node readable stream and a web ReadableStream', async () => {
    const uploads = uploadSite();
    await client().media.upload(Readable.from([Buffer.from([1, 2]), Buffer.from([3])]), {
      filename: 'a.png',
    });
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([9, 8]));
        controller.close();
      },
    });
    await client().media.upload(web, { filename: 'b.gif' });
    expect([...uploads[0]!.bytes]).toEqual([1, 2, 3]);
    expect(uploads[1]).toMatchObject({ contentType: 'image/gif' });
    expect([...uploads[1]!.bytes]).toEqual([9, 8]);
  });

  it('encodes a non-ASCII file name with filename* and an ASCII filename= (the one WordPress reads)', async () => {
    const uploads = uploadSite();
    await client().media.upload(PNG, { filename: 'Café "menu"; Ω.png' });
    expect(uploads[0]?.disposition).toBe(
      `attachment; filename="Cafe _menu__ _.png"; filename*=UTF-8''Caf%C3%A9%20%22menu%22%3B%20%CE%A9.png`,
    );
  });

  it.each([
    ['no file name for bytes', () => client().media.upload(PNG), 'filename'],
    [
      'a file name with a path',
      () => client().media.upload(PNG, { filename: '../etc/passwd.png' }),
      'filename',
    ],
    [
      'a file name with a newline',
      () => client().media.upload(PNG, { filename: 'a\r\nX-Evil: 1.png' }),
      'filename',
    ],
    [
      'an unknown extension without type',
      () => client().media.upload(PNG, { filename: 'data.xyz' }),
      'contentType',
    ],
    [
      'a bad content type',
      () => client().media.upload(PNG, { filename: 'a.png', contentType: 'png' }),
      'contentType',
    ],
    ['an empty body', () => client().media.upload(new Uint8Array(), { filename: 'a.png' }), 'source'],
    ['a missing file', () => client().media.upload('/nonexistent/dir/a.png'), 'source'],
    ['a directory', () => client().media.upload(tmpdir(), { filename: 'a.png' }), 'source'],
    ['a number', () => client().media.upload(42 as never, { filename: 'a.png' }), 'source'],
    ['bad fields', () => client().media.upload(PNG, { filename: 'a.png', fields: { post: -1 } }), 'post'],
  ])('refuses %s before sending', async (_name, call, param) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'invalid_param', param });
  });
});

describe('media routes', () => {
  it('post-processes an upload with create-image-subsizes', async () => {
    let body: unknown;
    server.use(
      http.post(`${ROOT}/cms/v2/media/41/post-process`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ id: 41 });
      }),
    );
    expect((await client().media.postProcess(41)).id).toBe(41);
    expect(body).toEqual({ action: 'create-image-subsizes' });
  });

  it('lists with media filters and updates alt text', async () => {
    let url: URL | undefined;
    let body: unknown;
    server.use(
      http.get(`${ROOT}/cms/v2/media`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json([{ id: 1, media_type: 'image', caption: { rendered: '' } }], {
          headers: { 'X-WP-Total': '1', 'X-WP-TotalPages': '1' },
        });
      }),
      http.post(`${ROOT}/cms/v2/media/1`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ id: 1, alt_text: 'A' });
      }),
    );
    const docs = client();
    expect((await docs.media.list({ media_type: 'image', parent: [3] })).items[0]?.media_type).toBe('image');
    expect(url?.searchParams.get('media_type')).toBe('image');
    expect((await docs.media.update(1, { alt_text: 'A' })).alt_text).toBe('A');
    expect(body).toEqual({ alt_text: 'A' });
  });

  it.each<[string, MediaListParams]>([
    ['media_type', { media_type: ['image', 'audio'] }],
    ['mime_type', { mime_type: ['image/png', 'image/gif'] }],
  ])(
    'explains a site that takes one %s per request (WordPress before 6.9), for list and iterate',
    async (param, params) => {
      server.use(
        http.get(`${ROOT}/cms/v2/media`, ({ request }) =>
          new URL(request.url).searchParams.has(`${param}[]`)
            ? wpError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, {
                params: { [param]: `${param} is not of type string.` },
              })
            : HttpResponse.json([], { headers: { 'X-WP-Total': '0', 'X-WP-TotalPages': '0' } }),
        ),
      );
      const docs = client();
      const one = (params as Record<string, string[]>)[param]?.slice(0, 1);
      expect((await docs.media.list({ [param]: one })).total).toBe(0);
      const listed = await docs.media.list(params).catch((e: unknown) => e);
      const iterated = await (async () => {
        for await (const _ of docs.media.iterate(params)) break;
      })().catch((e: unknown) => e);
      for (const [where, error] of [
        ['media.list', listed],
        ['media.iterate', iterated],
      ] as const) {
        expect(error).toBeInstanceOf(DocsSiteError);
        const e = error as DocsSiteError;
        expect(e.code).toBe('rest_invalid_param');
        expect(e.status).toBe(400);
        expect(e.message).toContain(`${where}: parameter "${param}": this site takes one value per request`);
      }
    },
  );

  it('leaves other parameter errors of the media list as the site sent them', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/media`, () =>
        wpError('rest_invalid_param', 'Invalid parameter(s): parent', 400, { params: { parent: 'bad' } }),
      ),
    );
    const error = await client()
      .media.list({ media_type: ['image', 'audio'] })
      .catch((e: unknown) => e);
    expect((error as DocsSiteError).code).toBe('rest_invalid_param');
    expect((error as DocsSiteError).message).not.toContain('one value per request');
  });
});
