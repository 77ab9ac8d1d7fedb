/**
 * No error message, `String(err)`, `util.inspect(err)` or log line may hold the client secret,
 * the authorization code, a token or the PKCE verifier — whatever goes wrong.
 */
import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import type { Transaction, TransactionStore } from '../../src/rp/types.js';
import type { Knobs } from '../helpers/op-mock.js';
import { CLIENT_SECRET, TOKEN_ENDPOINT, testKey } from '../helpers/op-mock.js';
import { newClient, rejection, useOp } from '../helpers/setup.js';

const { op, server } = useOp();

class KeepingStore implements TransactionStore {
  readonly inner = new MemoryTransactionStore({ bindToBrowser: false });
  last: Transaction | undefined;
  async put(tx: Transaction) {
    this.last = tx;
    return this.inner.put(tx);
  }
  take(state: string) {
    return this.inner.take(state);
  }
}

function everything(error: unknown, lines: string[]): string {
  const parts = [String(error), inspect(error, { depth: 10, showHidden: true }), ...lines];
  let current: unknown = error;
  while (current instanceof Error) {
    parts.push(current.message, String(current.stack));
    current = current.cause;
  }
  return parts.join('\n');
}

async function failWith(setup: (secrets: string[]) => Knobs | undefined) {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${message} ${JSON.stringify(fields)}`);
  const store = new KeepingStore();
  const client = await newClient({
    transactions: store,
    logger: { debug: log, info: log, warn: log, error: log },
  });
  const { url } = await client.createAuthorizationRequest({
    affiliation: 'student',
    claims: { userinfo: { reuse_detection: null } },
  });
  const callback = new URL(await op.authorize(url));
  const code = callback.searchParams.get('code') ?? '';
  const secrets = [CLIENT_SECRET, code, store.last?.codeVerifier ?? '', store.last?.nonce ?? ''];
  const knobs = setup(secrets) ?? {};
  const capture = knobs.tokenResponse;
  op.knobs = {
    ...knobs,
    tokenResponse: (body) => {
      secrets.push(String(body.access_token), String(body.id_token));
      capture?.(body);
    },
  };
  const error = await rejection(client.validateCallback(callback));
  return { error, text: everything(error, lines), secrets: secrets.filter((s) => s.length > 0), lines };
}

function expectClean(text: string, secrets: string[]) {
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/);
}

describe('no secret leaks', () => {
  it('when the token endpoint echoes the code and the secret in its error', async () => {
    const { text, secrets, error } = await failWith((s) => ({
      tokenError: {
        status: 400,
        body: { error: 'invalid_grant', error_description: `code ${s[1]} unknown for secret ${s[0]}` },
      },
    }));
    // A refused code is reported as replayed_transaction; the ProviderError is its cause.
    expect(error.name).toBe('ValidationError');
    expect((error.cause as Error).name).toBe('ProviderError');
    expectClean(text, secrets);
  });

  it('when the ID token is rejected after the exchange', async () => {
    const { text, secrets, error } = await failWith(() => ({ corruptSignature: true }));
    expect(error.code).toBe('signature_invalid');
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    expectClean(text, secrets);
  });

  it('when the key is unknown', async () => {
    const key = await testKey('leak-ghost');
    const { text, secrets } = await failWith(() => ({ signWith: key }));
    expectClean(text, secrets);
  });

  it('when userinfo refuses the access token', async () => {
    const { text, secrets, error } = await failWith(() => ({
      userinfoError: { status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' },
    }));
    expect(error.code).toBe('invalid_token');
    expectClean(text, secrets);
  });

  it('when the token endpoint cannot be reached', async () => {
    server.use(http.post(TOKEN_ENDPOINT, () => HttpResponse.error()));
    const { text, secrets, error } = await failWith(() => undefined);
    expect(error.name).toBe('TransportError');
    expectClean(text, secrets);
  });

  it('when the token response is malformed and holds the tokens', async () => {
    const { text, secrets } = await failWith(() => ({ tokenResponse: (b) => (b.token_type = 42) }));
    expectClean(text, secrets);
  });

  it('in the logger lines of a successful flow too', async () => {
    const lines: string[] = [];
    const log = (message: string, fields?: Record<string, unknown>) =>
      lines.push(`${message} ${JSON.stringify(fields)}`);
    const store = new KeepingStore();
    const client = await newClient({
      transactions: store,
      logger: { debug: log, info: log, warn: log, error: log },
    });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const callback = new URL(await op.authorize(url));
    const secrets = [CLIENT_SECRET, callback.searchParams.get('code') ?? '', store.last?.codeVerifier ?? ''];
    op.knobs = { tokenResponse: (b) => secrets.push(String(b.access_token), String(b.id_token)) };
    await client.validateCallback(callback);
    expect(lines.length).toBeGreaterThan(0);
    expectClean(lines.join('\n'), secrets);
  });
});
