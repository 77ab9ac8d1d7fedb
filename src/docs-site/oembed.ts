import { z } from 'zod';
import { checkParams } from './params/check.js';
import type { Transport } from './transport.js';
import type { OEmbed, OEmbedResource } from './types/resources.js';

const url = z.url().describe('The address of a page of this site.');
const format = z.enum(['json', 'xml']);
const maxwidth = z.int().min(1);

export const oembedEmbedSchema = z
  .strictObject({
    url,
    format: format.optional().describe('Default `json`; with `xml` the answer is returned as text.'),
    maxwidth: maxwidth.optional().describe('Default 600.'),
  })
  .meta({ id: 'OEmbedEmbedParams', description: 'Parameters of `GET /oembed/1.0/embed`.' });
export const oembedProxySchema = oembedEmbedSchema
  .extend({ maxheight: maxwidth.optional(), discover: z.boolean().optional().describe('Default `true`.') })
  .meta({ id: 'OEmbedProxyParams', description: 'Parameters of `GET /oembed/1.0/proxy`.' });

export const oembedSchema = z
  .looseObject({
    version: z.union([z.string(), z.number()]).optional(),
    type: z.string().optional(),
    title: z.string().optional(),
    html: z.string().optional(),
    provider_name: z.string().optional(),
    provider_url: z.string().optional(),
    author_name: z.string().optional(),
    author_url: z.string().optional(),
    width: z.union([z.number(), z.string()]).nullable().optional(),
    height: z.union([z.number(), z.string()]).nullable().optional(),
  })
  .meta({ id: 'OEmbed', description: 'An oEmbed answer (JSON format).' });

/** oEmbed (`/oembed/1.0`): JSON answers are checked, `format: 'xml'` answers returned as text. */
export function oembedResource(t: Transport): OEmbedResource {
  const get = async (route: string, schema: z.ZodType, params: unknown, where: string) => {
    const query = checkParams(schema, params, where) as { format?: 'json' | 'xml' };
    if (query.format === 'xml') {
      const res = await t.send('GET', route, { query, text: true, headers: { accept: 'text/xml' } });
      return res.body as string;
    }
    return (await t.sendParsed('GET', route, oembedSchema, { query })).body as OEmbed;
  };
  return Object.freeze({
    embed: (params: unknown) => get('/oembed/1.0/embed', oembedEmbedSchema, params, 'oembed.embed'),
    proxy: (params: unknown) => get('/oembed/1.0/proxy', oembedProxySchema, params, 'oembed.proxy'),
  }) as OEmbedResource;
}
