/**
 * Writes src/docs-site/types/generated.ts: the public interfaces of the docs-site client, derived from
 * the zod schemas that check requests and answers at run time (one source; the public .d.ts stays free
 * of zod). A schema becomes a named type when it has a `meta({ id })`; `description` becomes its JSDoc
 * (also on object members); `meta({ ts })` gives the type of a node zod cannot tell (a transform's
 * output). Answers are typed as the schemas' output, parameters and bodies as their input. The
 * resources' interfaces come from the route tables: a content kind's from its capabilities and schemas
 * (CONTENT_ROUTES), a plugin namespace's methods from what each route takes (PLUGIN_ROUTES), and the
 * client's resource properties (DocsSiteResources, merged into the class DocsSiteClient) from both.
 *
 * `npx tsx scripts/docs-site-types.ts` writes the file; `--check` exits 1 when it is not current (CI:
 * test/docs-site/types-generated.test.ts runs the same check).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import * as oembed from '../src/docs-site/oembed.js';
import * as bodies from '../src/docs-site/params/bodies.js';
import * as list from '../src/docs-site/params/list.js';
import * as edit from '../src/docs-site/params/media-edit.js';
import {
  CONTENT_ROUTES,
  type ContentRoute,
  PLUGIN_ROUTES,
  type PluginRoute,
} from '../src/docs-site/routes.js';
import * as common from '../src/docs-site/schemas/common.js';
import * as content from '../src/docs-site/schemas/content.js';
import * as index from '../src/docs-site/schemas/index-document.js';
import * as user from '../src/docs-site/schemas/user.js';

/** The named types, in the file's order: answers as the schemas' output, requests as their input. */
const NAMED_SCHEMAS = {
  output: [
    common.renderedField,
    content.contentMetaSchema,
    content.contentItemSchema,
    content.postSchema,
    content.pageSchema,
    content.mediaSchema,
    content.menuItemSchema,
    content.blockSchema,
    content.templateSchema,
    content.templateRevisionSchema,
    content.revisionSchema,
    user.currentUserSchema,
    index.routeArgSchema,
    index.routeEndpointSchema,
    index.routeSchema,
    index.indexSchema,
    index.namespaceIndexSchema,
    oembed.oembedSchema,
  ],
  input: [
    list.contextSchema,
    list.contentStatusSchema,
    list.listingStatusSchema,
    list.postFormatSchema,
    list.mediaTypeSchema,
    list.dateTimeSchema,
    list.termFilterSchema,
    list.listOrderBySchema,
    list.contextOnlySchema,
    list.itemReadWithPasswordSchema,
    list.listParamsSchema,
    list.postListSchema,
    list.pageListSchema,
    list.mediaListSchema,
    list.menuItemListSchema,
    list.blockListSchema,
    list.templateListSchema,
    list.templateLookupSchema,
    list.revisionListSchema,
    bodies.rawTextSchema,
    bodies.contentBodySchema,
    bodies.postBodySchema,
    bodies.pageBodySchema,
    bodies.mediaBodySchema,
    bodies.blockBodySchema,
    bodies.menuItemBodySchema,
    bodies.templateUpdateSchema,
    bodies.templateCreateSchema,
    bodies.templatePartUpdateSchema,
    bodies.templatePartCreateSchema,
    edit.mediaModifierSchema,
    edit.mediaEditSchema,
    edit.mediaPostProcessSchema,
    oembed.oembedEmbedSchema,
    oembed.oembedProxySchema,
    list.deleteSchema,
  ],
};

export const GENERATED = fileURLToPath(new URL('../src/docs-site/types/generated.ts', import.meta.url));

type Io = 'input' | 'output';
type Schema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };
type Meta = { id?: string; description?: string; ts?: string; group?: string };

const meta = (s: Schema): Meta => (z.globalRegistry.get(s) as Meta | undefined) ?? {};

function doc(text: string | undefined, indent: string, group?: string): string {
  const lines = [...(text ? text.split('\n') : []), ...(group ? [`@group ${group}`] : [])];
  if (lines.length === 0) return '';
  if (lines.length === 1 && lines[0]!.length < 90) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

/** Wraps a union so it can take `[]` or be a member of another union without changing meaning. */
const paren = (t: string) => (/[|&]/.test(t) ? `(${t})` : t);

/** The TypeScript of `s`; a schema with an id other than `root` is named, not spelled out. */
function typeOf(s: Schema, io: Io, indent: string, root?: Schema): string {
  const m = meta(s);
  if (m.ts !== undefined) return m.ts;
  if (m.id !== undefined && s !== root) return m.id;
  const def = s._zod.def;
  // A pipe (a preprocess, a transform) is its input's or its output's type, the same named type.
  if (def.type === 'pipe') {
    const side = (io === 'input' ? def.in : def.out) as Schema;
    return typeOf(side, io, indent, s === root ? side : undefined);
  }
  const inner = (x: unknown) => typeOf(x as Schema, io, indent);
  switch (def.type) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'unknown':
    case 'any':
      return 'unknown';
    case 'null':
      return 'null';
    case 'date':
      return 'Date';
    case 'literal':
      return (def.values as unknown[]).map((v) => JSON.stringify(v).replaceAll('"', "'")).join(' | ');
    case 'enum':
      return Object.values(def.entries as Record<string, string>)
        .map((v) => `'${v}'`)
        .join(' | ');
    case 'optional':
    case 'default':
      return inner(def.innerType);
    case 'nullable':
      return `${inner(def.innerType)} | null`;
    case 'array':
      return `${paren(inner(def.element))}[]`;
    case 'union':
      return [...new Set((def.options as Schema[]).map(inner))].join(' | ');
    case 'record':
      return `Record<string, ${inner(def.valueType)}>`;
    case 'object':
      return objectOf(s, io, indent);
    default:
      throw new Error(`docs-site-types: no TypeScript for a zod ${def.type} (give it meta({ ts }))`);
  }
}

/** An object's members: optional ones with `?` (and `| undefined` in inputs), unknown ones kept when loose. */
function objectOf(s: Schema, io: Io, indent: string): string {
  const def = s._zod.def as unknown as { shape: Record<string, Schema>; catchall?: Schema };
  const inner = `${indent}  `;
  const lines = Object.entries(def.shape).map(([key, member]) => {
    const optional = member._zod.def.type === 'optional' || member._zod.def.type === 'default';
    // A member's own description, else that of what it makes optional, unless that is a named type.
    const wrapped = optional ? meta(member._zod.def.innerType as Schema) : {};
    const description = meta(member).description ?? (wrapped.id ? undefined : wrapped.description);
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`;
    const type = typeOf(member, io, inner);
    const suffix = optional && io === 'input' ? ' | undefined' : '';
    return `${doc(description, inner)}${inner}${name}${optional ? '?' : ''}: ${type}${suffix};`;
  });
  if (def.catchall?._zod.def.type === 'unknown') lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** A resource's interface is named after the client's property: `menuItems` → `MenuItemsResource`. */
const interfaceName = (property: string) => `${property[0]?.toUpperCase()}${property.slice(1)}Resource`;

/** The interface of a content kind: the base operations, and one interface per capability. */
function contentInterface(property: string, route: ContentRoute): string {
  const name = (schema: Schema) => meta(schema).id as string;
  const [item, params, read, create, update] = [
    route.item,
    route.list,
    route.read ?? list.contextOnlySchema,
    route.create,
    route.update ?? route.create,
  ].map((s) => name(s as Schema));
  const id = route.id === 'slashed' ? 'string' : 'number';
  const revision = route.revision ? name(route.revision as Schema) : 'Revision';
  const capabilities = {
    iterate: `IterableResource<${item}, ${params}>`,
    batch: `BatchableResource<${create}>`,
    revisions: `RevisedResource<${id}, ${revision}>`,
    autosaves: `AutosavedResource<${update}, ${id}, ${revision}>`,
    lookup: `LookupResource<${item}>`,
    media: 'UploadableResource',
  };
  const bases = [
    `ContentResource<${item}, ${params}, ${create}, ${update}, ${read}, ${id}>`,
    ...route.can.map((c) => capabilities[c]),
  ];
  return `${doc(route.doc, '', 'Docs site')}export interface ${interfaceName(property)}\n  extends ${bases.join(',\n    ')} {}\n`;
}

/** A plugin namespace's JSDoc: its interface's, and its property's on the client. */
const pluginDoc = (spec: PluginRoute) => `${spec.doc} (\`/${spec.namespace}\`).`;

/** The interface of a plugin namespace: a method per route, its parameters from the route and `takes`. */
function pluginInterface(property: string, spec: PluginRoute): string {
  const methods = Object.entries(spec.methods).map(([name, [verb, route, takes = 'query', text]]) => {
    const param = /\{(\w+)\}/.exec(route)?.[1];
    const params = [
      param === undefined ? [] : [`${param}: ${param === 'id' ? 'number' : 'string'}`],
      {
        query: 'query?: PluginQuery',
        body: 'body: JsonObject',
        'body?': 'body?: JsonObject',
        id: 'id: string',
      }[takes],
      verb === 'UPDATE' ? ['options?: UpdateOptions'] : [],
    ].flat();
    const call = `\`${verb === 'UPDATE' ? 'POST|PUT|PATCH' : verb} ${route}\``;
    const head = doc(text ? `${text}: ${call}.` : `${call}.`, '  ');
    return `${head}  ${name}(${params.join(', ')}): Promise<unknown>;`;
  });
  const head = doc(pluginDoc(spec), '', 'Docs site');
  return `${head}export interface ${spec.type ?? interfaceName(property)} extends PluginResource {\n${methods.join('\n')}\n}\n`;
}

/** The client's resource properties, one per route row; the class DocsSiteClient merges this interface. */
function clientResources(): string {
  const members = [
    ...Object.entries(CONTENT_ROUTES).map(([p, route]) => [route.doc, p, interfaceName(p)]),
    ...Object.entries(PLUGIN_ROUTES).map(([p, spec]) => [pluginDoc(spec), p, spec.type ?? interfaceName(p)]),
  ].map(([text, property, type]) => `${doc(text, '  ')}  readonly ${property}: ${type};`);
  const head = doc('The resources of a `DocsSiteClient`, one per row of its route table.', '', 'Docs site');
  return `${head}export interface DocsSiteResources {\n${members.join('\n')}\n}\n`;
}

/** The file: one declaration per named schema, in the order of {@link NAMED_SCHEMAS}, then the resources'. */
export function generate(): string {
  const out = [
    '// Generated by scripts/docs-site-types.ts from the zod schemas and the route table of src/docs-site/: do not edit.',
    '// `npx tsx scripts/docs-site-types.ts` writes it again; test/docs-site/types-generated.test.ts checks it is current.',
    'import type {',
    '  AutosavedResource,',
    '  BatchableResource,',
    '  ContentResource,',
    '  IterableResource,',
    '  JsonObject,',
    '  LookupResource,',
    '  PluginQuery,',
    '  PluginResource,',
    '  RevisedResource,',
    '  UpdateOptions,',
    '  UploadableResource,',
    "} from './resources.js';",
    '',
  ];
  for (const [io, schemas] of Object.entries(NAMED_SCHEMAS) as [Io, unknown[]][]) {
    for (const schema of schemas as Schema[]) {
      const m = meta(schema);
      if (!m.id) throw new Error('docs-site-types: a named schema without meta({ id })');
      const body = typeOf(schema, io, '', schema);
      const head = doc(m.description, '', m.group ?? 'Docs site');
      let node = schema;
      while (node._zod.def.type === 'pipe') node = node._zod.def[io === 'input' ? 'in' : 'out'] as Schema;
      out.push(
        node._zod.def.type === 'object'
          ? `${head}export interface ${m.id} ${body}\n`
          : `${head}export type ${m.id} = ${body};\n`,
      );
    }
  }
  for (const [property, route] of Object.entries(CONTENT_ROUTES)) out.push(contentInterface(property, route));
  for (const [property, spec] of Object.entries(PLUGIN_ROUTES)) out.push(pluginInterface(property, spec));
  out.push(clientResources());
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = generate();
  if (process.argv.includes('--check')) {
    const current = await readFile(GENERATED, 'utf8').catch(() => '');
    if (current !== text) {
      console.error(`${GENERATED} is not current: run npx tsx scripts/docs-site-types.ts`);
      process.exit(1);
    }
  } else await writeFile(GENERATED, text);
}
