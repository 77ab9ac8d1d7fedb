/**
 * The media type of a `content-type` header, lower-cased and without parameters
 * (`Application/JSON; charset=utf-8` → `application/json`); `undefined` when there is none.
 */
export function mediaType(contentType: string | null | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

/**
 * Read a body of at most `maxBytes` bytes. A larger one, declared by `declaredLength` (the
 * `content-length`) or streamed, throws `tooLarge()` as soon as that is known, without reading on.
 * When `signal` aborts, the read stops and its reason is thrown: some fetch implementations never end
 * the body stream on abort, so the reader is cancelled, which ends a pending read.
 */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: (declared?: number) => Error,
  options: { declaredLength?: string | null; signal?: AbortSignal } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(options.declaredLength ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body?.cancel().catch(() => {});
    throw tooLarge(declared);
  }
  if (body === null) return new Uint8Array(0);
  const { signal } = options;
  const reader = body.getReader();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    // Not awaited: cancelling may wait on a peer that never answers, and we are done with it.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
