/**
 * `use(process)` where the runtime has Node's `process` and lets it be used (Node, Bun, Deno,
 * workerd with nodejs_compat), else `undefined`: workerd without nodejs_compat has no `process`,
 * and Next.js's edge runtime throws on a Node API it lacks.
 */
export function withProcess<T>(use: (process: NodeJS.Process) => T): T | undefined {
  try {
    const process = (globalThis as { process?: NodeJS.Process }).process;
    return process === undefined ? undefined : use(process);
  } catch {
    return undefined;
  }
}
