/**
 * `npm run bench [name…]`: runs every `bench/*.bench.ts` (or those whose name contains one of the
 * arguments). Each bench module exports a default async function that measures a baseline and the
 * SDK in the same run and prints figures and ratios. Nothing here asserts a time.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);
const files = (await readdir(dir))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

for (const file of files) {
  console.log(`\n### ${file.replace(/\.bench\.ts$/, '')}`);
  const mod = (await import(pathToFileURL(`${dir}/${file}`).href)) as { default: () => Promise<void> };
  await mod.default();
}
