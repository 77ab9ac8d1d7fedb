import { z } from 'zod';
import { checkParams } from '../params/check.js';
import type { DocsSiteMethod, Transport } from '../transport.js';

/**
 * A JSON object sent to a plugin route whose arguments the interface does not declare.
 *
 * @group Docs site
 */
export type JsonObject = Record<string, unknown>;

/** Query parameters of plugin routes: scalars or lists of scalars. */
export type PluginQuery = Record<
  string,
  string | number | boolean | readonly (string | number)[] | undefined
>;

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const querySchema = z.record(
  z.string(),
  z.union([scalar, z.array(z.union([z.string(), z.number()])), z.undefined()]),
);
const bodySchema = z.record(z.string(), z.unknown());

/** Shared plumbing of the plugin namespaces: undeclared answers are returned as parsed JSON. */
export abstract class PluginNamespace {
  /** @internal */
  protected readonly transport: Transport;
  /** The namespace, e.g. `forms/v1`. */
  abstract readonly namespace: string;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** @internal */
  protected async call(
    method: DocsSiteMethod,
    route: string,
    where: string,
    input: { query?: PluginQuery | undefined; body?: JsonObject | undefined } = {},
  ): Promise<unknown> {
    const query = checkParams(querySchema, input.query, where) as Record<string, unknown>;
    const body = input.body === undefined ? undefined : checkParams(bodySchema, input.body, where);
    const res = await this.transport.send(method, `/${this.namespace}${route}`, { query, body });
    return res.body;
  }
}
