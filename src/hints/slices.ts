/**
 * Long work of a refresh (parsing a feed, merging, comparing, indexing) is written as a generator
 * that yields often; `inSlices` runs it handing the event loop back every few milliseconds, so the
 * shop's other requests are served meanwhile. `drain` runs the same steps in one go. Sorting and large
 * maps, which the engine does in one step, are done here in pieces.
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

/**
 * Sorts `items` with a merge sort that yields between runs and within merges, stable (equal items
 * keep their order). The engine's own sort of 65,000 institutions or 100,000 words is one piece of
 * work too long to leave the event loop blocked; runs of a few hundred items are not.
 */
export function* sortInSlices<T>(items: T[], compare: (a: T, b: T) => number): Generator<void, T[]> {
  let runs: T[][] = [];
  for (let i = 0; i < items.length; i += 512) {
    runs.push(items.slice(i, i + 512).sort(compare));
    yield;
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const a = runs[r]!;
      const b = runs[r + 1];
      if (b === undefined) {
        merged.push(a);
        continue;
      }
      const out: T[] = [];
      let i = 0;
      let j = 0;
      while (i < a.length || j < b.length) {
        out.push(j >= b.length || (i < a.length && compare(a[i]!, b[j]!) <= 0) ? a[i++]! : b[j++]!);
        if ((out.length & 511) === 0) yield;
      }
      merged.push(out);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

/**
 * A map kept in parts, by a mix of the key's first and last characters and its length. A Map grows by
 * copying itself whole, one step of the engine: at 100,000 keys and more (exact names, domains, the
 * dictionary of a large list), that step alone stalls the shop's event loop for longer than a slice
 * of a refresh (the bench's "longest event-loop stall").
 */
export class Parts<V> {
  readonly #parts: Map<string, V>[] = Array.from({ length: 64 }, () => new Map());
  #of(key: string): Map<string, V> {
    return this.#parts[(key.charCodeAt(0) * 31 + key.charCodeAt(key.length - 1) + key.length) & 63]!;
  }
  get(key: string): V | undefined {
    return this.#of(key).get(key);
  }
  set(key: string, value: V): void {
    this.#of(key).set(key, value);
  }
}
