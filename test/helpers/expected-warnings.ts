/**
 * Vitest setup file (`setupFiles`: it runs in every worker of the forks pool, before each test file):
 * a process warning fails `npm test` unless it is expected by name.
 *
 * - `AFFILIATION_VALIDATION_ID_TOKEN`, the `DeprecationWarning` that every client configured with
 *   `responseType: 'id_token'` emits, is expected everywhere: it is recorded in `expectedWarnings`
 *   instead of being printed. `test/rp/client-discovery.test.ts` checks that it is really emitted.
 * - A test that provokes another warning says so with `expectWarning(nameOrCode)`, for the rest of
 *   that test; it gets the warnings caught, to assert on.
 * - Any other warning fails: the test during which it is emitted (checked after each test, once
 *   the warnings emitted on the next tick have landed), or, outside a test (at import, in a hook,
 *   after the last test), the whole run, as an uncaught error that vitest reports and counts.
 *
 * Detection listens to the `'warning'` event, which every warning reaches whatever emitted it;
 * `process.emitWarning` is wrapped only so that expected warnings are not printed. Warnings of child
 * processes a test spawns are theirs to check (their stderr).
 * `test/helpers/expected-warnings.test.ts` proves all this with a vitest run of fixture files.
 */
import { afterAll, afterEach, beforeEach } from 'vitest';

/** The SDK's own documented deprecation, expected in every test. */
const ID_TOKEN_CODE = 'AFFILIATION_VALIDATION_ID_TOKEN';

/** A warning as recorded: its name (`DeprecationWarning`, `MaxListenersExceededWarning`, …), code and message. */
export interface RecordedWarning {
  readonly name: string;
  readonly code: string | undefined;
  readonly message: string;
}

/** The expected `AFFILIATION_VALIDATION_ID_TOKEN` warnings swallowed in this test file, in order. */
export const expectedWarnings: string[] = [];

/** Names or codes the current test expects, with what it caught. */
const expectations = new Map<string, RecordedWarning[]>();
/** Unexpected warnings of the current test. */
let unexpected: RecordedWarning[] = [];
let inTest = false;

/**
 * Expect warnings of this name (`MaxListenersExceededWarning`) or code (`DEP0040`) until the end of
 * the current test: they are not printed and do not fail it. Returns the list they are recorded in.
 */
export function expectWarning(nameOrCode: string): readonly RecordedWarning[] {
  if (!inTest) throw new Error('expectWarning() is called inside a test');
  let caught = expectations.get(nameOrCode);
  if (!caught) {
    caught = [];
    expectations.set(nameOrCode, caught);
  }
  return caught;
}

function record(warning: unknown, rest: unknown[]): RecordedWarning {
  const [typeOrOptions, codeArg] = rest;
  const options =
    typeof typeOrOptions === 'object' && typeOrOptions !== null
      ? (typeOrOptions as { type?: unknown; code?: unknown })
      : { type: typeOrOptions, code: codeArg };
  if (warning instanceof Error) {
    const code = (warning as { code?: unknown }).code;
    return {
      name: warning.name,
      code: typeof code === 'string' ? code : undefined,
      message: warning.message,
    };
  }
  return {
    name: typeof options.type === 'string' ? options.type : 'Warning',
    code: typeof options.code === 'string' ? options.code : undefined,
    message: String(warning),
  };
}

/** The list an expected warning goes to, or undefined when it is not expected. */
function expectedList(w: RecordedWarning): RecordedWarning[] | undefined {
  return expectations.get(w.name) ?? (w.code === undefined ? undefined : expectations.get(w.code));
}

const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const w = record(warning, rest);
  if (w.code === ID_TOKEN_CODE) {
    expectedWarnings.push(w.message);
    return;
  }
  const list = expectedList(w);
  if (list) {
    list.push(w);
    return;
  }
  emit(warning, ...rest);
}) as typeof process.emitWarning;

function describeWarnings(list: readonly RecordedWarning[]): string {
  return list.map((w) => `${w.name}${w.code ? ` [${w.code}]` : ''}: ${w.message}`).join('\n  ');
}

/** Unexpected warnings fail the run; see the file comment. */
class UnexpectedWarningError extends Error {
  override name = 'UnexpectedWarningError';
}

process.on('warning', (warning: Error) => {
  const w = record(warning, []);
  // A warning emitted without process.emitWarning (Node's internal synchronous path) can still be expected.
  const list = w.code === ID_TOKEN_CODE ? [] : expectedList(w);
  if (list) {
    list.push(w);
    return;
  }
  if (inTest) {
    unexpected.push(w);
    return;
  }
  throw new UnexpectedWarningError(
    `a process warning was emitted outside a test; expect it with expectWarning() in the test that causes it, or remove its cause:\n  ${describeWarnings([w])}`,
  );
});

/** Warnings are emitted on the next tick: let those of the code just run land. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeEach(() => {
  inTest = true;
});

afterEach(async () => {
  await settle();
  const found = unexpected;
  unexpected = [];
  expectations.clear();
  inTest = false;
  if (found.length > 0) {
    throw new UnexpectedWarningError(
      `unexpected process warning while this test ran (or from something an earlier test left running); expect it with expectWarning('${found[0]!.name}') if it is the point of the test, or remove its cause:\n  ${describeWarnings(found)}`,
    );
  }
});

afterAll(async () => {
  // Warnings of the file's own afterAll hooks (this one runs last) are outside a test: the listener throws.
  await settle();
});
