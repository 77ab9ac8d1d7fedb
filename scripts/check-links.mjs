#!/usr/bin/env node
// Relative links of the packed Markdown resolve: every `[text](target)` in README.md and the shipped
// docs/*.md whose target is not absolute must name a file (or folder) inside the package directory,
// so no link is dead from node_modules or on the registry's page.
//
//   node scripts/check-links.mjs <package dir>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.argv[2] ?? '.');
const pages = [
  'README.md',
  ...(existsSync(path.join(dir, 'docs')) ? readdirSync(path.join(dir, 'docs')) : [])
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const dead = [];
let count = 0;
for (const page of pages) {
  const text = readFileSync(path.join(dir, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    count++;
    const file = decodeURIComponent(target.split('#')[0]);
    const resolved = path.resolve(dir, path.dirname(page), file);
    if (!resolved.startsWith(dir + path.sep) || !existsSync(resolved)) dead.push(`${page}: ${target}`);
  }
}
if (dead.length) {
  console.error(`${dead.length} of ${count} relative links are dead:\n${dead.join('\n')}`);
  process.exit(1);
}
console.log(`${count} relative links in ${pages.length} pages resolve`);
