import { z } from 'zod';
import { AffiliationError } from '../core/errors.js';
import { mapLimit } from '../core/map-limit.js';
import {
  type BatchOptions,
  type BatchRequest,
  type BatchResult,
  type CheckedBatchRequest,
  MAX_BATCH_CONCURRENCY,
  MAX_BATCH_ITEMS,
} from './batch-request.js';
import { DocsSiteError } from './errors.js';
import { BATCH_PATHS } from './routes.js';
import { emptyArrayAsObject } from './schemas/common.js';
import type { Transport } from './transport.js';

const headerValues = emptyArrayAsObject(
  z.record(
    z.string(),
    z.union([
      z.string(),
      z.number().transform(String),
      z.array(z.union([z.string(), z.number()]).transform(String)),
    ]),
  ),
);

const envelopeSchema = z.looseObject({
  body: z.unknown(),
  status: z.number().int(),
  headers: headerValues.optional(),
});

/** The answer of `/batch/v1`: `{ failed?, responses: ({ body, status, headers } | null)[] }`. */
export const batchAnswerSchema = z.looseObject({
  failed: z.string().optional(),
  responses: z.array(envelopeSchema.nullable()),
});

const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const bodySchema = z.record(z.string(), z.unknown()).optional();
const headersSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional();

function refuse(message: string, param?: string): never {
  throw new DocsSiteError(`batch: ${message}`, { code: 'invalid_batch', param });
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Check every request before anything is sent: method, a path below the content namespace on a
 * batch-capable route (collections and items of posts, pages, menu items, blocks — not media), a
 * plain-object body and string headers.
 */
export function checkBatchRequests(
  requests: readonly BatchRequest[],
  contentNamespace: string,
): CheckedBatchRequest[] {
  if (!Array.isArray(requests)) refuse('requests must be an array', 'requests');
  const route = new RegExp(
    `^/${escapeRe(contentNamespace)}/(${BATCH_PATHS.map(escapeRe).join('|')})(/\\d+)?$`,
  );
  return requests.map((request, i) => {
    const at = `requests.${i}`;
    if (typeof request !== 'object' || request === null) refuse(`${at} must be an object`, at);
    const method = (request.method ?? 'POST').toUpperCase();
    if (!METHODS.has(method)) refuse(`${at}.method must be POST, PUT, PATCH or DELETE`, `${at}.method`);
    if (typeof request.path !== 'string' || request.path === '')
      refuse(`${at}.path is required`, `${at}.path`);
    const path = request.path.startsWith('/') ? request.path : `/${request.path}`;
    const bare = path.split('?')[0] ?? '';
    const match = route.exec(bare);
    if (!match || path.includes('#')) {
      refuse(
        `${at}.path "${bare}" is not a batch-capable route: only the collections and items of posts, pages, menu-items and blocks under /${contentNamespace} are`,
        `${at}.path`,
      );
    }
    const isItem = match[2] !== undefined;
    if (!isItem && method !== 'POST') refuse(`${at}: a collection route takes only POST`, `${at}.method`);
    if (!bodySchema.safeParse(request.body).success) refuse(`${at}.body must be an object`, `${at}.body`);
    if (!headersSchema.safeParse(request.headers).success) {
      refuse(`${at}.headers must map names to strings or arrays of strings`, `${at}.headers`);
    }
    const out: CheckedBatchRequest = { method: method as CheckedBatchRequest['method'], path };
    if (request.body !== undefined) out.body = request.body;
    if (request.headers !== undefined) out.headers = request.headers;
    return out;
  });
}

/** The result of an item without an answer of its own. */
function failed(error: DocsSiteError): BatchResult {
  return { ok: false, status: error.status, body: null, headers: {}, error };
}

function notExecuted(reason: string, cause?: unknown): BatchResult {
  return failed(new DocsSiteError(`batch: item not run: ${reason}`, { code: 'batch_not_executed', cause }));
}

/** Run a batch: checks, chunking, one result per item in order. */
export async function runBatch(
  transport: Transport,
  requests: readonly BatchRequest[],
  options: BatchOptions,
  learnedMaxItems: number | undefined,
): Promise<BatchResult[]> {
  const validation = options.validation ?? 'normal';
  if (validation !== 'normal' && validation !== 'require-all-validate') {
    refuse('validation must be "normal" or "require-all-validate"', 'validation');
  }
  const checked = checkBatchRequests(requests, transport.settings.contentNamespace);
  const limit = Math.max(1, Math.min(MAX_BATCH_ITEMS, learnedMaxItems ?? MAX_BATCH_ITEMS));
  if (validation === 'require-all-validate' && checked.length > limit) {
    refuse(
      `a require-all-validate batch takes at most ${limit} requests (got ${checked.length}); it cannot be split because its atomicity cannot span calls`,
      'requests',
    );
  }
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_BATCH_CONCURRENCY) {
    refuse(`concurrency must be an integer from 1 to ${MAX_BATCH_CONCURRENCY}`, 'concurrency');
  }
  const total = checked.length;
  const chunks: CheckedBatchRequest[][] = [];
  for (let start = 0; start < total; start += limit) chunks.push(checked.slice(start, start + limit));
  let done = 0;
  let failure: DocsSiteError | undefined;
  // After a failed call no new call starts (`undefined`: never sent): the site may be down, and the
  // caller learns which items ran. Calls already in flight finish and keep their results.
  const outcomes = await mapLimit(chunks, concurrency, async (chunk): Promise<BatchResult[] | undefined> => {
    if (failure !== undefined) return undefined;
    try {
      const results = await sendChunk(transport, chunk, validation);
      done += chunk.length;
      if (failure === undefined) options.onProgress?.({ done, total });
      return results;
    } catch (error) {
      const callFailure = failureOf(error);
      failure ??= callFailure;
      return chunk.map(() => failed(callFailure));
    }
  });
  const notRun = (chunk: CheckedBatchRequest[]) =>
    chunk.map(() => notExecuted('another call of this batch failed', failure));
  const results = outcomes.flatMap((outcome, i) => outcome ?? notRun(chunks[i] as CheckedBatchRequest[]));
  if (failure !== undefined) options.onProgress?.({ done: total, total });
  return results;
}

/** The error every item of a failed call gets: its outcome is unknown. */
function failureOf(error: unknown): DocsSiteError {
  if (error instanceof DocsSiteError) return error;
  return new DocsSiteError(
    `batch: the call failed, its items' outcome is unknown: ${error instanceof Error ? error.message : 'unknown error'}`,
    {
      code: 'batch_failed',
      cause: error,
      status:
        error instanceof AffiliationError && 'status' in error
          ? (error.status as number | undefined)
          : undefined,
    },
  );
}

async function sendChunk(
  transport: Transport,
  chunk: CheckedBatchRequest[],
  validation: 'normal' | 'require-all-validate',
): Promise<BatchResult[]> {
  const body = { validation, requests: chunk };
  transport.http.logger.debug?.('sending batch', { items: chunk.length, validation });
  const res = await transport.sendParsed('POST', '/batch/v1', batchAnswerSchema, { body });
  const { responses, failed } = res.body;
  const invalid = (what: string) =>
    new DocsSiteError(`POST /batch/v1: ${what}`, {
      code: 'invalid_response',
      status: res.status,
      method: 'POST',
      path: '/batch/v1',
    });
  if (responses.length !== chunk.length) {
    throw invalid(`the site answered ${responses.length} results for ${chunk.length} requests`);
  }
  return responses.map((envelope, i) => {
    const request = chunk[i] as CheckedBatchRequest;
    if (envelope === null) {
      if (failed === undefined) throw invalid(`result ${i} is empty although the batch did not fail`);
      return notExecuted(`another item of this ${validation} batch failed ${failed}`);
    }
    const headers = (envelope.headers ?? {}) as Record<string, string | string[]>;
    const ok = envelope.status >= 200 && envelope.status < 300 && failed === undefined;
    const result: BatchResult = { ok, status: envelope.status, body: envelope.body, headers };
    if (!ok) {
      result.error =
        envelope.status >= 400
          ? transport.errorFor(request.method, request.path, envelope.status, envelope.body)
          : new DocsSiteError(`batch: item ${i} not run: the batch failed ${failed}`, {
              code: 'batch_not_executed',
              status: envelope.status,
            });
    }
    return result;
  });
}
