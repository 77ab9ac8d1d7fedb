import { invalidParam } from './errors.js';
import { readFileUpload } from './files.js';

/**
 * What `media.upload()` accepts: a file path, bytes, a `Blob` / `File`, a Node readable stream or a
 * web `ReadableStream`. A file path is read from disk while sending; streams are read into memory
 * first (a request body of known length, and one that could be sent again).
 *
 * @group Docs site
 */
export type UploadSource =
  | string
  | Uint8Array
  | ArrayBuffer
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.heic': 'image/heic',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.zip': 'application/zip',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const MIME = /^[\w.+-]+\/[\w.+-]+$/;

/** The content type for a file name's extension, when known. */
export function guessContentType(filename: string): string | undefined {
  return TYPES[/\.[^.]*$/.exec(filename)?.[0].toLowerCase() ?? ''];
}

/**
 * The `Content-Disposition` header of a raw upload. WordPress reads only `filename=` and splits the
 * header on every `;`, so that parameter gets an ASCII form of the name (accents dropped, anything
 * else unsafe as `_`) — the name the site stores; an RFC 5987 `filename*` carries the exact name for
 * servers that read it.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\;]/g, '_');
  if (ascii === filename) return `attachment; filename="${filename}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Read a source into bytes and settle its file name and content type. */
export async function readUpload(
  source: UploadSource,
  options: { filename?: string; contentType?: string },
  where: string,
): Promise<{ data: Uint8Array | Blob; filename: string; contentType: string }> {
  // Files and Blobs are handed to fetch as Blobs: read from disk while sending, never copied here.
  let data: Uint8Array | Blob;
  let filename = options.filename;
  let contentType = options.contentType;
  if (typeof source === 'string') {
    try {
      const file = await readFileUpload(source);
      data = file.data;
      filename ??= file.filename;
    } catch (error) {
      throw invalidParam(
        'source',
        `cannot be read as a file (${(error as { code?: string }).code ?? 'error'})`,
        where,
        error,
      );
    }
  } else if (source instanceof Uint8Array) {
    data = source;
  } else if (source instanceof ArrayBuffer) {
    data = new Uint8Array(source);
  } else if (typeof Blob !== 'undefined' && source instanceof Blob) {
    data = source;
    if (filename === undefined && 'name' in source && typeof source.name === 'string' && source.name) {
      filename = source.name;
    }
    if (contentType === undefined && source.type) contentType = source.type.split(';')[0];
  } else if (
    typeof source === 'object' &&
    source !== null &&
    (Symbol.asyncIterator in source || 'getReader' in source)
  ) {
    const chunks: BlobPart[] = [];
    if (Symbol.asyncIterator in source) {
      for await (const chunk of source as AsyncIterable<Uint8Array | string>) chunks.push(chunk as BlobPart);
    } else {
      // A web stream that is not async-iterable (older browsers): a Response reads it.
      chunks.push(await new Response(source as ReadableStream<Uint8Array>).arrayBuffer());
    }
    // A Blob joins the chunks, strings as UTF-8.
    data = new Uint8Array(await new Blob(chunks).arrayBuffer());
  } else {
    throw invalidParam('source', 'must be a file path, bytes, a Blob or a stream', where);
  }
  // A path separator or a control character would break the header or escape the uploads folder.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (typeof filename !== 'string' || filename.trim() === '' || /[/\\\u0000-\u001f\u007f]/.test(filename)) {
    throw invalidParam(
      'filename',
      'is required: a file name without path separators or control characters',
      where,
    );
  }
  contentType ??= guessContentType(filename);
  if (contentType === undefined) {
    throw invalidParam(
      'contentType',
      `is required: the type of "${filename}" cannot be told from its extension`,
      where,
    );
  }
  if (!MIME.test(contentType))
    throw invalidParam('contentType', 'must be a MIME type such as image/png', where);
  if ((data instanceof Uint8Array ? data.byteLength : data.size) === 0) {
    throw invalidParam('source', 'is empty', where);
  }
  return { data, filename, contentType };
}
