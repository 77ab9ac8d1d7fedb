/**
 * Importing the HTTP layer must change nothing in the process: no dispatcher created, and above all
 * not the undici package's habit of installing its own Agent as the global dispatcher that Node's own
 * `fetch` (used by the rest of the application) then picks up. Run in a fresh child process, since
 * this test process has long loaded everything.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

async function inFreshProcess(code: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '' },
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
}

describe('importing the HTTP layer', () => {
  it('creates no dispatcher and leaves the global dispatcher alone until the first request', async () => {
    const result = await inFreshProcess(`
      const key = Symbol.for('undici.globalDispatcher.1');
      const http = { ...(await import('./src/http/client.ts')), ...(await import('./src/http/dispatcher.ts')) };
      const afterImport = globalThis[key] === undefined;
      new http.HttpClient();
      const afterConstruct = globalThis[key] === undefined;
      const mine = await http.getDefaultDispatcher();
      const { Agent } = await import('undici');
      const global = globalThis[key];
      console.log(JSON.stringify({
        afterImport,
        afterConstruct,
        mineIsUndici7Agent: mine instanceof Agent,
        globalIsNodesOwn: global !== undefined && !(global instanceof Agent) && global !== mine,
      }));
      await http.closeDefaultDispatcher();
    `);
    expect(result).toEqual({
      afterImport: true,
      afterConstruct: true,
      mineIsUndici7Agent: true,
      globalIsNodesOwn: true,
    });
  });
});
