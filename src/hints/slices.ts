/**
 * Long work of a refresh (parsing a feed, merging, comparing, indexing) is written as a generator
 * that yields often; `inSlices` runs it handing the event loop back every few milliseconds, so the
 * shop's other requests are served meanwhile. `drain` runs the same steps in one go.
 */

/** How long a slice keeps the event loop before it lets other work run, in ms. */
const SLICE_MS = 5;

/** Runs `steps`, handing the event loop back every {@link SLICE_MS}. */
export async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  let start = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - start >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      start = performance.now();
    }
  }
}

/** Runs `steps` in one go. */
export function drain<T>(steps: Generator<void, T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}
