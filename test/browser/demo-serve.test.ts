/**
 * `affiliation-validation demo --serve` and `npm run demo -- --serve` as a person uses them: spawn the
 * command, read the shop's URL from its output, validate in a real browser, press Ctrl-C (SIGINT),
 * expect exit 0 and both ports closed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browsersUnderTest, launch, openPage } from './browsers.js';
import { heading, shopperValidates, text, UNIVERSITY } from './flows.js';

interface Served {
  child: ChildProcess;
  output: () => string;
  shopUrl: string;
  providerUrl: string;
  exit: Promise<number | null>;
}

/** Start a command and wait until it printed the shop's and the provider's URLs. */
async function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const shop = /Shop \([^)]*\): (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
    const provider = /Test provider \(the service, simulated\): (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    if (shop && provider) return { child, output: () => out, shopUrl: shop, providerUrl: provider, exit };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the command did not print the shop URL:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether something accepts connections on the URL's port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stop(served: Served): Promise<void> {
  served.child.kill('SIGINT');
  const code = await served.exit;
  expect(code, served.output()).toBe(0);
  expect(served.output()).toContain('Stopping.');
  expect(await listening(served.shopUrl)).toBe(false);
  expect(await listening(served.providerUrl)).toBe(false);
}

describe.each(browsersUnderTest())('affiliation-validation demo --serve in $name', (b) => {
  let served: Served | undefined;
  afterAll(() => {
    if (served?.child.exitCode === null) served.child.kill('SIGKILL');
  });
  beforeAll(async () => {
    served = await serve(['src/cli/main.ts', 'demo', '--serve']);
  });

  it('serves the shop until Ctrl-C: a person validates in the browser, then SIGINT stops both servers', async () => {
    const s = served!;
    expect(await listening(s.shopUrl)).toBe(true);
    const browser = await launch(b);
    try {
      const { page, problems, close } = await openPage(browser);
      await shopperValidates(page, s.shopUrl, { browser: b.name, hint: UNIVERSITY.entityId, flow: 'code' });
      expect(await heading(page)).toBe('Affiliation validated');
      expect(await text(page, 'institution')).toBe(UNIVERSITY.name);
      expect(problems).toEqual([]);
      await close();
    } finally {
      await browser.close();
    }
    await stop(s);
    // It launches the browser, then runs a whole validation: on a loaded 2-core CI machine, Firefox
    // can pass the default 20 s with both.
  }, 60_000);
});

describe('npm run demo -- --serve (the Express example)', () => {
  it('serves the shop page until SIGTERM, then exits 0 with both ports closed', async () => {
    const served = await serve(['examples/demo.ts', '--serve']);
    try {
      const home = await fetch(`${served.shopUrl}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('action="/start"');
      served.child.kill('SIGTERM');
      expect(await served.exit, served.output()).toBe(0);
      expect(await listening(served.shopUrl)).toBe(false);
      expect(await listening(served.providerUrl)).toBe(false);
    } finally {
      if (served.child.exitCode === null) served.child.kill('SIGKILL');
    }
  });
});
