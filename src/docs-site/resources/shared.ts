import { z } from 'zod';
import { invalidParam } from '../errors.js';
import type { Transport } from '../transport.js';

/**
 * The outcome of a delete: `deleted: true` when the item is gone for good (`force: true`), `false`
 * when it was moved to the trash; `item` is the item as it was (or is now, in the trash).
 *
 * @group Docs site
 */
export interface DeleteResult<T> {
  deleted: boolean;
  item: T;
}

/** Options of a delete. */
export interface DeleteOptions {
  /** Delete for good instead of moving to the trash. Default `false` (the site's default). */
  force?: boolean;
}

/** Options of an update. */
export interface UpdateOptions {
  /** The method used; the site accepts POST, PUT and PATCH for updates. Default `POST`. */
  method?: 'POST' | 'PUT' | 'PATCH';
}

const UPDATE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Check the update method option. */
export function updateMethod(options: UpdateOptions | undefined, where: string): 'POST' | 'PUT' | 'PATCH' {
  const method = options?.method ?? 'POST';
  if (!UPDATE_METHODS.has(method)) {
    throw invalidParam('method', 'must be POST, PUT or PATCH', where);
  }
  return method;
}

/** Parse the answer of a delete into a {@link DeleteResult}. */
export function parseDelete<S extends z.ZodType>(
  transport: Transport,
  item: S,
  body: unknown,
  method: string,
  path: string,
  status: number,
): DeleteResult<z.output<S>> {
  if (typeof body === 'object' && body !== null && 'deleted' in body) {
    const parsed = transport.parse(
      z.looseObject({ deleted: z.boolean(), previous: item }),
      body,
      method,
      path,
      status,
    ) as { deleted: boolean; previous: z.output<S> };
    return { deleted: parsed.deleted, item: parsed.previous };
  }
  return { deleted: false, item: transport.parse(item, body, method, path, status) };
}
