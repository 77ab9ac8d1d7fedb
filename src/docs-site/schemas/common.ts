import { z } from 'zod';

/**
 * WordPress encodes an empty PHP array as `[]`, so an object member (meta, headers,
 * authentication) may arrive as an empty JSON array. Accept that as `{}`.
 */
export function emptyArrayAsObject<S extends z.ZodType>(schema: S) {
  return z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? {} : v), schema);
}

/** An object with string keys whose values are not checked; `[]` is taken as `{}`. */
export const looseRecord = emptyArrayAsObject(z.record(z.string(), z.unknown()));

/**
 * A `{ raw?, rendered? }` field (title, content, excerpt, caption, description). With
 * `context=embed`, a field that has only `raw` (a block's title, a template's content) is emptied to a
 * PHP array and arrives as `[]`: taken as `{}`.
 */
export const renderedField = emptyArrayAsObject(
  z.looseObject({
    raw: z.string().optional().describe("The stored text (`context: 'edit'` only)."),
    rendered: z.string().optional().describe('The text as the site renders it.'),
    protected: z
      .boolean()
      .optional()
      .describe('Whether the item is password-protected (content and excerpt).'),
    block_version: z.number().optional().describe('The block format version of the content.'),
  }),
).meta({
  id: 'RenderedField',
  description: 'A `{ raw?, rendered? }` field: title, content, excerpt, caption, description.',
  group: '',
});

/** A field that is a plain string in some kinds and `{ raw, rendered }` in others. */
export const textOrRendered = z.union([z.string(), renderedField]);

/** Links of a resource (`_links`), left unchecked beyond being an object. */
export const links = looseRecord.optional();
