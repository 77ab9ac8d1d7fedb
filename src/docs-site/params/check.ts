import type { z } from 'zod';
import { DocsSiteError, invalidParam } from '../errors.js';

/**
 * Check parameters or a body against its schema before anything is sent. The error is an
 * `invalid_param` {@link DocsSiteError} naming the parameter (a dotted path for nested fields).
 */
export function checkParams<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0] && mostSpecific(result.error.issues[0]);
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
  throw invalidParam(param, message, where, result.error);
}

/**
 * A union (`status: 'draft' | ['draft', …]`) reports "Invalid input" at its own path; use instead
 * the issue of the branch the input was meant for (the one whose type matched), with its full path.
 */
function mostSpecific(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const branches = issue.errors
    .map((branch) => branch[0])
    .filter((i): i is z.core.$ZodIssue => i !== undefined);
  const typed = branches.filter((i) => !(i.code === 'invalid_type' && i.path.length === 0));
  const pick = [...(typed.length > 0 ? typed : branches)].sort((a, b) => b.path.length - a.path.length)[0];
  if (!pick || typed.length === 0) return issue;
  return mostSpecific({ ...pick, path: [...issue.path, ...pick.path] } as z.core.$ZodIssue);
}

/** A positive integer id (posts, pages, media, menu items, blocks, forms). */
export function checkId(id: unknown, where: string, name = 'id'): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw invalidParam(name, 'must be a positive integer', where);
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
    throw invalidParam(name, 'must be a template id such as "theme//slug"', where);
  }
  return id;
}
