import { type MediaBody, mediaBodySchema } from '../params/bodies.js';
import { checkId, checkParams } from '../params/check.js';
import type { contextOnlySchema, mediaListSchema } from '../params/list.js';
import {
  type MediaEditBody,
  type MediaPostProcessBody,
  mediaEditSchema,
  mediaPostProcessSchema,
} from '../params/media-edit.js';
import { type Media, mediaSchema } from '../schemas/content.js';
import { contentDisposition, readUpload, type UploadSource } from '../upload.js';
import { ContentResource } from './content.js';

/**
 * Options of `media.upload()`.
 *
 * @group Docs site
 */
export interface UploadOptions {
  /** The file name the site stores. Default: the path's base name, or a `File`'s name; otherwise required. */
  filename?: string;
  /** The MIME type. Default: the `Blob`'s type, or guessed from the file name's extension; otherwise required. */
  contentType?: string;
  /** Fields of the new attachment (title, caption, alt_text, description, post, status…), checked like an update. */
  fields?: MediaBody;
}

/**
 * Media attachments: `/{ns}/media`. Not batch-capable. Adds `upload`, `edit` and `postProcess`.
 *
 * @group Docs site
 */
export class MediaResource extends ContentResource<
  typeof mediaSchema,
  typeof mediaListSchema,
  typeof mediaBodySchema,
  typeof contextOnlySchema
> {
  /**
   * Upload a file as a new attachment: the bytes are the request body, with `Content-Type` and a
   * `Content-Disposition` carrying the file name; `fields` go in the query string.
   *
   * @example
   * ```ts
   * const logo = await docs.media.upload('./logo.png', { fields: { alt_text: 'Our logo' } });
   * ```
   */
  async upload(source: UploadSource, options: UploadOptions = {}): Promise<Media> {
    const where = 'media.upload';
    const fields = checkParams(mediaBodySchema, options.fields, where) as Record<string, unknown>;
    const file = await readUpload(source, options, where);
    const res = await this.transport.sendParsed('POST', this.collectionPath, mediaSchema, {
      query: fields,
      raw: { data: file.data, contentType: file.contentType },
      headers: { 'content-disposition': contentDisposition(file.filename) },
    });
    return res.body;
  }

  /**
   * Edit an image (`POST /media/{id}/edit`): flip, rotate and crop modifiers (at least one), or the
   * deprecated `rotation` / `x`, `y`, `width`, `height`. The site answers with a new attachment.
   */
  async edit(id: number, body: MediaEditBody): Promise<Media> {
    const where = 'media.edit';
    checkId(id, where);
    const checked = checkParams(mediaEditSchema, body, where);
    return (
      await this.transport.sendParsed('POST', `${this.itemPath(id)}/edit`, mediaSchema, { body: checked })
    ).body;
  }

  /** Finish server-side processing of an upload (`action: 'create-image-subsizes'`). */
  async postProcess(
    id: number,
    body: MediaPostProcessBody = { action: 'create-image-subsizes' },
  ): Promise<Media> {
    const where = 'media.postProcess';
    checkId(id, where);
    const checked = checkParams(mediaPostProcessSchema, body, where);
    return (
      await this.transport.sendParsed('POST', `${this.itemPath(id)}/post-process`, mediaSchema, {
        body: checked,
      })
    ).body;
  }
}
