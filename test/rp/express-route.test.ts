/**
 * The Express callback route of docs/getting-started.md on a real Express 5 server on 127.0.0.1:
 * code flow through GET, id_token flow through the fragment relay POST (parsed by
 * express.urlencoded), and an error shown with its userMessage.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { http, passthrough } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AffiliationError } from '../../src/core/errors.js';
import type { AffiliationClient } from '../../src/rp/client.js';
import { fragmentRelayHtml } from '../../src/rp/relay.js';
import { browserCookie, newClient, useOp } from '../helpers/setup.js';

const { op, server: msw } = useOp();
let server: Server;
let base = '';
const clients: Record<string, AffiliationClient> = {};

beforeAll(async () => {
  clients.code = await newClient();
  clients.id_token = await newClient({ responseType: 'id_token' });
  const app = express();
  app.all('/callback/:flow', express.urlencoded({ extended: false }), async (req, res) => {
    const client = clients[req.params.flow as string] as AffiliationClient;
    try {
      const result = await client.validateCallback(req);
      res.send(`Validated: ${result.affiliation}`);
    } catch (error) {
      if (error instanceof AffiliationError && error.code === 'fragment_relay_required') {
        const relay = fragmentRelayHtml();
        res.status(200).set(relay.headers).send(relay.html);
        return;
      }
      if (error instanceof AffiliationError) {
        res.status(400).send(error.userMessage);
        return;
      }
      throw error;
    }
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function local() {
  msw.use(http.all(`${base}/*`, () => passthrough()));
}

describe('the Express route of the guide', () => {
  it('validates a code flow callback (GET)', async () => {
    local();
    const { url, setCookie } = await clients.code!.createAuthorizationRequest({ affiliation: 'employee' });
    const callback = new URL(await op.authorize(url));
    const response = await fetch(`${base}/callback/code${callback.search}`, {
      headers: { cookie: browserCookie(setCookie) },
    });
    expect(await response.text()).toBe('Validated: employee');
  });

  it('serves the relay for the fragment, then validates its form POST', async () => {
    local();
    const { url, setCookie } = await clients.id_token!.createAuthorizationRequest({ affiliation: 'member' });
    const fragment = new URL(await op.authorize(url)).hash.slice(1);
    const relay = await fetch(`${base}/callback/id_token`);
    expect(relay.status).toBe(200);
    expect(relay.headers.get('content-security-policy')).toBeTruthy();
    const response = await fetch(`${base}/callback/id_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browserCookie(setCookie) },
      body: fragment,
    });
    expect(await response.text()).toBe('Validated: member');
  });

  it('answers an OP error with the shopper message', async () => {
    local();
    const response = await fetch(
      `${base}/callback/code?error=access_denied&error_description=entity_id%20error`,
    );
    expect(response.status).toBe(400);
    // spec 7.2: the hint was not resolved; the shopper did nothing wrong and is told what to do next.
    expect(await response.text()).toMatch(/did not recognise the institution that was chosen/);
  });
});
