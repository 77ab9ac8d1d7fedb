#!/usr/bin/env node
// The import graph of each built entry point: what Node really loads when a user imports it.
//
//   node scripts/import-graph.mjs [--dist <dir>] [--json] [--check]
//
// For every subpath of package.json `exports`, a fresh Node process imports the built file with a
// loader hook (scripts/import-graph-hooks.mjs) that records every module it resolves: our dist files
// and the packages under node_modules. Lazy `import()`s in the dist files (CLI commands, the optional
// msw peer) are listed too, from the code, since they load only when used. With --check the RULES
// below are asserted and the exit code is 1 when one is broken. --dist points at another build of
// the package (e.g. the one installed from the packed tarball by scripts/check-package.sh).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Packages an entry point must never load when imported (the package name: its files anywhere under
 * node_modules/<name>/). `*` applies to every entry point.
 */
const OTEL = '@opentelemetry/api'; // an optional peer: only ./otel loads it
export const RULES = {
  '*': ['msw'], // an optional peer: loaded only by createTestProviderHandlers(), lazily
  '.': ['redis', 'ioredis', '@redis/client', OTEL],
  './redis': ['redis', 'ioredis', '@redis/client', OTEL], // uses the merchant's client, never imports one
  // The feed and cache-file checks are hand-written: importing hints loads no package at all.
  './hints': ['openid-client', 'oauth4webapi', 'jose', 'zod', OTEL],
  './docs-site': ['openid-client', 'oauth4webapi', 'jose', OTEL],
  './testing': [OTEL],
  // The picker's server helper only reads and serves a file.
  './picker': ['openid-client', 'oauth4webapi', 'jose', 'zod', OTEL],
  // Subscribes to the SDK's channels by name: loads none of the SDK's engines.
  './otel': ['openid-client', 'oauth4webapi', 'jose', 'zod', 'undici'],
};

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The entry points from package.json `exports`: subpath → file relative to the package root. */
export function entryPoints(pkgDir = ROOT) {
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const out = {};
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const file = typeof target === 'string' ? target : (target.default ?? target.import);
    if (subpath === './package.json' || typeof file !== 'string' || !file.endsWith('.js')) continue;
    out[subpath] = file;
  }
  return out;
}

/** The package a URL belongs to (`jose`, `@redis/client`), or undefined for our own files. */
function packageOf(url) {
  const i = url.lastIndexOf('/node_modules/');
  if (i < 0) return undefined;
  const [a, b] = url.slice(i + '/node_modules/'.length).split('/');
  return a?.startsWith('@') ? `${a}/${b}` : a;
}

/** Import one file in a fresh Node process with the recording hook; returns [parent, child] URLs. */
export function recordLoads(file) {
  const child = `
    import { register } from 'node:module';
    import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    register(${JSON.stringify(pathToFileURL(path.join(ROOT, 'scripts/import-graph-hooks.mjs')).href)},
      { data: { port: port2 }, transferList: [port2] });
    await import(${JSON.stringify(pathToFileURL(file).href)});
    port1.postMessage('report');
    let message;
    while (!(message = receiveMessageOnPort(port1))) await new Promise((r) => setTimeout(r, 5));
    process.stdout.write(JSON.stringify(message.message));
    port1.close();
  `;
  const out = execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', child], {
    encoding: 'utf8',
    cwd: path.dirname(file),
  });
  return JSON.parse(out).filter(([, url]) => url.startsWith('file:'));
}

/** `import("…")` calls in a built file: loaded only when that code runs. */
function lazyImports(file) {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
}

/** The graph of one entry: dist files loaded, packages loaded (with file counts), lazy imports. */
export function graphOf(distRoot, file) {
  const abs = path.resolve(distRoot, file);
  const edges = recordLoads(abs);
  const ownFiles = new Set([abs]);
  const packages = new Map();
  const own = path.resolve(distRoot) + path.sep;
  for (const [, url] of edges) {
    const file = fileURLToPath(url);
    // Ours: under the package folder, but not in a node_modules inside it (as in a checkout).
    const mine =
      file.startsWith(own) && !path.relative(distRoot, file).split(path.sep).includes('node_modules');
    const p = mine ? undefined : packageOf(url);
    if (p) packages.set(p, (packages.get(p) ?? 0) + 1);
    else ownFiles.add(file);
  }
  const lazy = [];
  for (const f of ownFiles) {
    for (const spec of lazyImports(f)) lazy.push(`${path.basename(f)} → ${spec}`);
  }
  return {
    files: [...ownFiles].map((f) => path.relative(distRoot, f)).sort(),
    packages: Object.fromEntries([...packages].sort(([a], [b]) => a.localeCompare(b))),
    lazy,
  };
}

/** Every rule an entry's graph breaks, as sentences. */
export function violations(subpath, graph) {
  const forbidden = [...(RULES['*'] ?? []), ...(RULES[subpath] ?? [])];
  return forbidden
    .filter((name) => name in graph.packages)
    .map((name) => `${subpath} loads ${name} (${graph.packages[name]} files)`);
}

function main(argv) {
  const distRoot = path.resolve(argv.includes('--dist') ? argv[argv.indexOf('--dist') + 1] : ROOT);
  const report = {};
  const broken = [];
  for (const [subpath, file] of Object.entries(entryPoints(distRoot))) {
    const graph = graphOf(distRoot, file);
    report[subpath] = graph;
    broken.push(...violations(subpath, graph));
  }
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    for (const [subpath, g] of Object.entries(report)) {
      const pk = Object.entries(g.packages).map(([n, c]) => `${n} (${c})`);
      console.log(`${subpath}`);
      console.log(`  dist files (${g.files.length}): ${g.files.join(' ')}`);
      console.log(`  packages: ${pk.length ? pk.join(', ') : 'none'}`);
      console.log(`  lazy imports: ${g.lazy.length ? g.lazy.join(', ') : 'none'}`);
    }
  }
  if (argv.includes('--check')) {
    for (const line of broken) console.error(`FAIL ${line}`);
    if (broken.length) process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2));
}
