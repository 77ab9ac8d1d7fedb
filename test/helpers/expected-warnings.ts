/**
 * Vitest setup file: the `DeprecationWarning` that every client configured with
 * `responseType: 'id_token'` emits is expected in tests, so it is recorded here instead of being
 * printed on every run. Any other warning is printed as usual. `test/rp/client-discovery.test.ts`
 * checks that the warning is really emitted, once per client.
 */
const CODE = 'AFFILIATION_VALIDATION_ID_TOKEN';
const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;

/** The expected warnings swallowed in this test file, in order. */
export const expectedWarnings: string[] = [];

process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const options = rest[0];
  const code =
    typeof options === 'object' && options !== null ? (options as { code?: unknown }).code : rest[1];
  if (code === CODE) {
    expectedWarnings.push(typeof warning === 'string' ? warning : warning.message);
    return;
  }
  emit(warning, ...rest);
}) as typeof process.emitWarning;
