/**
 * Start-up cost of each entry point, as a serverless cold start pays it: the CPU time (user +
 * system, whole process) of `node -e "await import(entry)"` over a bare `node`, against importing
 * the entry's own runtime dependencies alone (the bare specifiers its built files import
 * statically), in the same run. The core entry is also shown beside `import('openid-client')` alone,
 * the protocol engine it is built on. Target for the core entry: ≤ +45 ms over bare node.
 *
 * Measures the built package (`dist/`; built first when missing) through its `exports`, and prints
 * each entry's import graph: what loads at import time, and what is only loaded on first use.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, report } from './util.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPETITIONS = 11;
/** The package's own `#…` imports (package.json `imports`), as Node resolves them: part of the package. */
const NODE_IMPORTS: Record<string, string> = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).imports ?? {}).map(
    ([key, targets]) => [key, (targets as { default: string }).default],
  ),
);
const CORE_TARGET_MS = 45;

interface Graph {
  /** Bare specifiers imported statically by the entry or a chunk it loads: paid at import. */
  eager: Set<string>;
  /** Bare specifiers imported only through `import()`: paid on first use. */
  lazy: Set<string>;
  /** Files of the package loaded at import. */
  files: Set<string>;
}

const STATIC_IMPORT = /(?:^|[;\n])\s*(?:import|export)\s*(?:[\w*${}\s,]+from\s*)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Follow the static imports of a built file through its relative chunks. */
function importGraph(file: string, graph: Graph = { eager: new Set(), lazy: new Set(), files: new Set() }) {
  if (graph.files.has(file)) return graph;
  graph.files.add(file);
  const text = readFileSync(file, 'utf8');
  for (const [, spec] of text.matchAll(STATIC_IMPORT)) {
    if (spec === undefined) continue;
    if (spec.startsWith('.')) importGraph(join(dirname(file), spec), graph);
    else if (spec.startsWith('#')) importGraph(join(ROOT, NODE_IMPORTS[spec] ?? spec), graph);
    else graph.eager.add(spec);
  }
  for (const [, spec] of text.matchAll(DYNAMIC_IMPORT)) {
    if (spec === undefined) continue;
    if (spec.startsWith('.')) {
      // A lazily loaded chunk: its own static imports are lazy too. It starts from the files seen
      // so far, so a chunk that imports back into them (a cycle through import()) ends.
      const inner = importGraph(join(dirname(file), spec), {
        eager: new Set(),
        lazy: new Set(),
        files: new Set(graph.files),
      });
      for (const s of inner.eager) graph.lazy.add(s);
    } else graph.lazy.add(spec);
  }
  for (const s of graph.eager) graph.lazy.delete(s);
  return graph;
}

/** CPU ms of a whole `node` process that imports `specifiers` (none: bare node). */
function cpuOf(specifiers: readonly string[]): number {
  const code = `${specifiers.map((s) => `await import(${JSON.stringify(s)});`).join('')}
const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return Number(out) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Entry points of the package that Node can import, with their built file. */
function entries(): { name: string; specifier: string; file: string }[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const out: { name: string; specifier: string; file: string }[] = [];
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (key === './package.json') continue;
    const file = resolveTarget(target);
    if (!file?.endsWith('.js')) continue;
    out.push({ name: key, specifier: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, file });
  }
  return out;
}

function resolveTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return join(ROOT, target);
  if (typeof target !== 'object' || target === null) return undefined;
  const t = target as Record<string, unknown>;
  return resolveTarget(t.import ?? t.node ?? t.default);
}

export default async function run(): Promise<void> {
  if (entries().some((entry) => !existsSync(entry.file))) {
    console.log('  (building dist/ first: npm run build)');
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  }
  const measured = entries().map((entry) => {
    const graph = importGraph(entry.file);
    return { ...entry, graph, deps: [...graph.eager].sort() };
  });
  // Interleaved repetitions: every row of one repetition runs under the same load.
  const samples = new Map<string, number[]>([
    ['bare', []],
    ['openid-client', []],
  ]);
  for (const entry of measured) {
    samples.set(entry.name, []);
    samples.set(`${entry.name} deps`, []);
  }
  for (let r = 0; r < REPETITIONS; r++) {
    samples.get('bare')?.push(cpuOf([]));
    samples.get('openid-client')?.push(cpuOf(['openid-client']));
    for (const entry of measured) {
      try {
        samples.get(entry.name)?.push(cpuOf([entry.specifier]));
      } catch {
        samples.set(entry.name, [Number.NaN]);
      }
      samples.get(`${entry.name} deps`)?.push(cpuOf(entry.deps));
    }
  }
  const bare = median(samples.get('bare') ?? []);
  report('bare node (baseline), CPU', bare, 'ms');
  for (const entry of measured) {
    const own = median(samples.get(entry.name) ?? []) - bare;
    const deps = median(samples.get(`${entry.name} deps`) ?? []) - bare;
    console.log(`  ${entry.specifier}`);
    console.log(`    loads at import: ${entry.deps.join(', ') || '(nothing outside the package)'}`);
    console.log(`    loads on first use: ${[...entry.graph.lazy].sort().join(', ') || '(nothing)'}`);
    report('    import, CPU over bare node', own, 'ms');
    report('    its runtime dependencies alone, over bare node', deps, 'ms');
    report('    the package itself (difference)', own - deps, 'ms');
    if (entry.name === '.') {
      const engine = median(samples.get('openid-client') ?? []) - bare;
      report("    import('openid-client') alone, over bare node", engine, 'ms');
      report('    ratio core entry / openid-client alone', `${fmt(own / engine, 2)}x`);
      report(`    target <= +${CORE_TARGET_MS} ms met`, own <= CORE_TARGET_MS ? 'yes' : 'NO');
    }
  }
  console.log(`  (medians of ${REPETITIONS} runs each)`);
}
