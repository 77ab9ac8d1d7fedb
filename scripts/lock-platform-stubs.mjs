#!/usr/bin/env node
/**
 * Adds lock-file entries for the platform-specific optional packages of our dev tools (biome, esbuild,
 * rollup, …) that the registry mirror of this workplace does not serve (it answers 404 for packages of
 * other platforms, so `npm install` cannot record them and `npm ci` then calls the lock "out of sync").
 *
 * Each stub carries the package's `os` / `cpu` / `libc` so npm skips it on every other platform, exactly as
 * it would skip a full entry. Run after `npm install` changes the lock: `node scripts/lock-platform-stubs.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'netbsd',
  'sunos',
  'win32',
  'aix',
  'openharmony',
  'cygwin',
];
const CPU = [
  'arm64',
  'x64',
  'ia32',
  'arm',
  'loong64',
  'mips64el',
  'ppc64',
  'riscv64',
  's390x',
  'wasm32',
  'mips',
  'ppc',
];

/** Guess os / cpu / libc from a platform package name such as `@rollup/rollup-linux-arm64-musl`. */
function platformOf(name) {
  const base = name.split('/').pop() ?? name;
  const parts = base.split('-');
  const os = parts.find((p) => OS.includes(p)) ?? (parts.includes('win32') ? 'win32' : undefined);
  let cpu = parts.find((p) => CPU.includes(p));
  if (!cpu && parts.includes('arm')) cpu = 'arm';
  if (!os && !cpu) return undefined;
  const out = {};
  if (os) out.os = [os];
  if (cpu) out.cpu = [cpu];
  if (parts.includes('musl') || parts.includes('musleabihf')) out.libc = ['musl'];
  else if (os === 'linux' && (parts.includes('gnu') || parts.includes('gnueabihf'))) out.libc = ['glibc'];
  return out;
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies ?? {};
  for (const [dep, range] of Object.entries(optional)) {
    const prefix = path === '' ? '' : `${path}/`;
    const candidates = [`${prefix}node_modules/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform) continue; // not a platform package: leave it to npm
    const version = String(range).replace(/^[\^~=]/, '');
    packages[`node_modules/${dep}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added++;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platform-stubs: added ${added} platform stub entr${added === 1 ? 'y' : 'ies'}`);
