/** Small measuring helpers shared by the benchmarks. */

/** Run `fn` repeatedly for about `ms` milliseconds (after a warm-up) and return operations per second. */
export async function opsPerSecond(fn: () => unknown, ms = 1000): Promise<number> {
  const warmUntil = performance.now() + Math.min(300, ms / 3);
  while (performance.now() < warmUntil) await fn();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    await fn();
    n++;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

/** Percentile of a list of numbers (p in 0..100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export function fmt(n: number, digits = 2): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** Print a figure line: `label  value unit`. */
export function report(label: string, value: number | string, unit = ''): void {
  console.log(
    `  ${label.padEnd(48)} ${typeof value === 'number' ? fmt(value) : value}${unit ? ` ${unit}` : ''}`,
  );
}
