/**
 * The example shops behind a TLS-terminating proxy: the app listens on plain http on 127.0.0.1 but
 * its public address (the configured redirect URI) is https. Origin checks, cookie flags and HSTS
 * must follow the configuration, never the request's own scheme or Host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer as startExpress } from '../../examples/express/app.js';
import { startServer as startFastify } from '../../examples/fastify/app.js';
import { startServer as startHono } from '../../examples/hono/app.js';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';

const PUBLIC = 'https://shop.example';
const SECRET = 'proxy-example-client-secret-5e2a';

const shops = { express: startExpress, fastify: startFastify, hono: startHono };

for (const [name, start] of Object.entries(shops)) {
  describe(`${name} example behind a TLS-terminating proxy`, () => {
    let op: RunningTestProvider;
    let shop: Awaited<ReturnType<typeof startExpress>>;

    beforeAll(async () => {
      op = await TestProvider.start({ clients: [] });
      shop = await start({
        issuer: op.issuer,
        clientId: `${name}-proxied`,
        clientSecret: SECRET,
        redirectUri: `${PUBLIC}/callback`,
        log: () => {},
      });
      op.registerClient({
        clientId: `${name}-proxied`,
        clientSecret: SECRET,
        redirectUris: [`${PUBLIC}/callback`],
      });
    });
    afterAll(async () => {
      await shop?.close();
      await op?.close();
    });

    const post = (origin: string) =>
      fetch(`${shop.url}/start`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded', host: 'shop.example' },
        body: 'affiliation=student&institution=&flow=code',
        redirect: 'manual',
      });

    it('sends HSTS on its pages', async () => {
      const home = await fetch(`${shop.url}/`);
      expect(home.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    });

    it('compares Origin with the configured public origin, not with the address the app sees', async () => {
      const internal = await post(shop.url);
      expect(internal.status).toBe(403);
      const insecure = await post('http://shop.example');
      expect(insecure.status).toBe(403);
      const ok = await post(PUBLIC);
      expect(ok.status).toBe(303);
      expect(ok.headers.get('set-cookie')).toMatch(/; Secure/);
    });

    it('issues a Secure __Host- session cookie after the validation', async () => {
      const started = await post(PUBLIC);
      const cookie = started.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const callback = new URL(await op.authorize(started.headers.get('location') ?? ''));
      expect(callback.origin).toBe(PUBLIC);
      const back = await fetch(`${shop.url}${callback.pathname}${callback.search}`, {
        headers: { cookie },
        redirect: 'manual',
      });
      expect(back.status).toBe(303);
      const session = back.headers.getSetCookie().find((c) => c.startsWith('__Host-shop_session=')) ?? '';
      expect(session).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
      expect(back.headers.get('strict-transport-security')).toMatch(/^max-age=/);
    });
  });
}
