import type { z } from 'zod';
import { DocsSiteError } from '../errors.js';

/**
 * Check parameters or a body against its schema before anything is sent. The error is an
 * `invalid_param` {@link DocsSiteError} naming the parameter (a dotted path for nested fields).
 */
export function checkParams<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new DocsSiteError(`${where}: invalid parameters`, { code: 'invalid_param' });
  let param = issue.path.map(String).join('.');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    param = param ? `${param}.${key}` : key;
    message = `is not a parameter of ${where}`;
  } else if (issue.code === 'invalid_type' && issue.input === undefined) {
    message = 'is required';
  } else {
    message = `is invalid: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  }
  if (!param) param = '(parameters)';
  return throwParam(param, message, where, result.error);
}

function throwParam(param: string, message: string, where: string, cause: unknown): never {
  throw new DocsSiteError(`${where}: parameter "${param}" ${message}`, {
    code: 'invalid_param',
    param,
    cause,
  });
}

/** A positive integer id (posts, pages, media, menu items, blocks, forms). */
export function checkId(id: unknown, where: string, name = 'id'): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throwParam(name, 'must be a positive integer', where, undefined);
  }
  return id;
}

/**
 * A template id: a theme, an optional slash and a slug (`twentytwentythree//home`). Refused when
 * empty, with a leading slash, with whitespace or with a character the route pattern excludes.
 */
export function checkTemplateId(id: unknown, where: string, name = 'id'): string {
  if (
    typeof id !== 'string' ||
    id === '' ||
    id.startsWith('/') ||
    /[\s:<>*?"|\\]/.test(id) ||
    id.includes('..')
  ) {
    throwParam(name, 'must be a template id such as "theme//slug"', where, undefined);
  }
  return id;
}
