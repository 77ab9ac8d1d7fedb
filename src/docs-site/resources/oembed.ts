import { z } from 'zod';
import { checkParams } from '../params/check.js';
import type { Transport } from '../transport.js';

const url = z.url();
const format = z.enum(['json', 'xml']);
const maxwidth = z.int().min(1);

/** Parameters of `GET /oembed/1.0/embed` (defaults: `format` json, `maxwidth` 600). */
export const oembedEmbedSchema = z.strictObject({
  url,
  format: format.optional(),
  maxwidth: maxwidth.optional(),
});
/** Parameters of `GET /oembed/1.0/proxy` (defaults: `format` json, `maxwidth` 600, `discover` true). */
export const oembedProxySchema = z.strictObject({
  url,
  format: format.optional(),
  maxwidth: maxwidth.optional(),
  maxheight: maxwidth.optional(),
  discover: z.boolean().optional(),
});

/** An oEmbed answer (JSON format). */
export const oembedSchema = z.looseObject({
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
});

/** @group Docs site */
export type OEmbed = z.infer<typeof oembedSchema>;
/** @group Docs site */
export type OEmbedEmbedParams = z.input<typeof oembedEmbedSchema>;
/** @group Docs site */
export type OEmbedProxyParams = z.input<typeof oembedProxySchema>;

/**
 * oEmbed (`/oembed/1.0`). With `format: 'xml'` the answer is returned as text.
 *
 * @group Docs site
 */
export class OEmbedResource {
  readonly #transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** oEmbed data of a URL on this site. */
  embed(params: OEmbedEmbedParams & { format: 'xml' }): Promise<string>;
  embed(params: OEmbedEmbedParams): Promise<OEmbed>;
  async embed(params: OEmbedEmbedParams): Promise<OEmbed | string> {
    const query = checkParams(oembedEmbedSchema, params, 'oembed.embed');
    return this.#get('/oembed/1.0/embed', query);
  }

  /** oEmbed data of any URL, fetched by the site (needs an authenticated user). */
  proxy(params: OEmbedProxyParams & { format: 'xml' }): Promise<string>;
  proxy(params: OEmbedProxyParams): Promise<OEmbed>;
  async proxy(params: OEmbedProxyParams): Promise<OEmbed | string> {
    const query = checkParams(oembedProxySchema, params, 'oembed.proxy');
    return this.#get('/oembed/1.0/proxy', query);
  }

  async #get(route: string, query: { format?: 'json' | 'xml' | undefined }): Promise<OEmbed | string> {
    if (query.format === 'xml') {
      const res = await this.#transport.send('GET', route, {
        query,
        text: true,
        headers: { accept: 'text/xml' },
      });
      return res.body as string;
    }
    return (await this.#transport.sendParsed('GET', route, oembedSchema, { query })).body;
  }
}
