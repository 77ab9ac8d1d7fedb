/** The README's examples for `affiliation-validation/testing` run as written (imports mapped to src/). */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

async function snippets(): Promise<string[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Test your integration without network');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

function mapImports(code: string): string {
  const src = (file: string) => JSON.stringify(join(root, 'src', file));
  return code
    .replaceAll("'affiliation-validation/testing/msw'", src('testing-msw.ts'))
    .replaceAll("'affiliation-validation/testing'", src('testing.ts'))
    .replaceAll("'affiliation-validation'", src('index.ts'));
}

describe('README: Test your integration without network', () => {
  it('has the two examples', async () => {
    expect(await snippets()).toHaveLength(2);
  });

  it.each([0, 1])('example %i runs', async (index) => {
    const code = (await snippets())[index] ?? '';
    const dir = join(root, '.tmp', 'testing');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `readme-example-${index}-${process.pid}.ts`);
    // The first example ends by validating; expose its result so the test can look at it.
    const exported =
      index === 0 ? `${mapImports(code)}\nexport { result };\n` : `${mapImports(code)}\nserver.close();\n`;
    await writeFile(file, exported);
    try {
      const module = (await import(file)) as { result?: Record<string, unknown> };
      if (index === 0)
        expect(module.result).toMatchObject({ affiliation: 'faculty+staff', identifier: 'persistent' });
    } finally {
      await rm(file, { force: true });
    }
  });
});
