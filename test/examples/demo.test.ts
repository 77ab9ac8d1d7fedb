import { describe, expect, it } from 'vitest';
import { startServer } from '../../examples/express/app.js';
import { runDemo } from '../../src/cli/demo-runner.js';

// `npm run demo` (examples/demo.ts) is runDemo with the Express example as the shop.
describe('npm run demo (Express example)', () => {
  it('validates with the code flow and then the id_token flow', async () => {
    const lines: string[] = [];
    const results = await runDemo({
      startShop: (options) => startServer(options),
      shopName: 'Express example',
      write: (line) => lines.push(line),
    });
    expect(results.map((r) => [r.flow, r.affiliation])).toEqual([
      ['code', 'student'],
      ['id_token', 'student'],
    ]);
    expect(results[1]?.institution).toBe('Example College');
    expect(lines.join('\n')).toContain('The shop serves the relay page');
  });
});
