import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { ScopeError, ValidationError } from '../../src/rp/errors.js';
import { MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import type { Transaction, TransactionContext, TransactionStore } from '../../src/rp/types.js';
import { AUTHORIZATION_ENDPOINT, CLIENT_ID, REDIRECT_URI } from '../helpers/op-mock.js';
import { newClient, rejection, useOp } from '../helpers/setup.js';

useOp();

/** A store that records what it was given. */
class RecordingStore implements TransactionStore {
  readonly inner = new MemoryTransactionStore({ bindToBrowser: false });
  readonly puts: { transaction: Transaction; context: TransactionContext | undefined }[] = [];
  constructor(readonly cookie?: string) {}
  async put(transaction: Transaction, context?: TransactionContext) {
    this.puts.push({ transaction, context });
    await this.inner.put(transaction);
    return this.cookie;
  }
  take(state: string) {
    return this.inner.take(state);
  }
}

function rawQuery(url: string): Map<string, string> {
  const query = url.slice(url.indexOf('?') + 1);
  return new Map(query.split('&').map((pair) => pair.split('=') as [string, string]));
}

describe('createAuthorizationRequest', () => {
  it('builds a code flow request with PKCE S256 at the discovered endpoint', async () => {
    const store = new RecordingStore();
    const client = await newClient({ transactions: store });
    const { url, state, setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
    expect(url.startsWith(`${AUTHORIZATION_ENDPOINT}?`)).toBe(true);
    expect(setCookie).toBeUndefined();
    const params = new URL(url).searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(params.get('scope')).toBe('openid student');
    expect(params.get('state')).toBe(state);
    expect(params.get('code_challenge_method')).toBe('S256');
    const tx = store.puts[0]?.transaction as Transaction;
    expect(tx.state).toBe(state);
    expect(params.get('nonce')).toBe(tx.nonce);
    const challenge = createHash('sha256')
      .update(tx.codeVerifier ?? '')
      .digest('base64url');
    expect(params.get('code_challenge')).toBe(challenge);
    expect(tx.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tx.scopes).toEqual(['openid', 'student']);
    expect(tx.responseType).toBe('code');
    expect(tx.redirectUri).toBe(REDIRECT_URI);
    expect(tx.expiresAt - tx.createdAt).toBe(600_000);
  });

  it('uses 256-bit random state and nonce, fresh every time', async () => {
    const store = new RecordingStore();
    const client = await newClient({ transactions: store });
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      await client.createAuthorizationRequest({ affiliation: 'student' });
      const tx = store.puts.at(-1)?.transaction as Transaction;
      for (const value of [tx.state, tx.nonce, tx.codeVerifier ?? '']) {
        expect(Buffer.from(value, 'base64url')).toHaveLength(32);
        seen.add(value);
      }
    }
    expect(seen.size).toBe(60);
  });

  it('writes spaces as %20 and the + of faculty+staff as %2B on the wire', async () => {
    const client = await newClient();
    const { url } = await client.createAuthorizationRequest({
      affiliation: 'faculty+staff',
      identifier: 'persistent',
      scopes: ['email'],
    });
    expect(rawQuery(url).get('scope')).toBe('openid%20faculty%2Bstaff%20persistent%20email');
    expect(url).not.toMatch(/scope=[^&]*\+/);
    expect(new URL(url).searchParams.get('scope')).toBe('openid faculty+staff persistent email');
  });

  it('sends claims as JSON and aarc_idp_hint, and stores them', async () => {
    const store = new RecordingStore();
    const client = await newClient({ transactions: store });
    const { url } = await client.createAuthorizationRequest({
      affiliation: 'employee',
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
      idpHint: 'https://idp.example.edu/idp/shibboleth',
    });
    const params = new URL(url).searchParams;
    expect(JSON.parse(params.get('claims') ?? '')).toEqual({
      id_token: { reuse_detection: null },
      userinfo: { reuse_detection: null },
    });
    expect(params.get('aarc_idp_hint')).toBe('https://idp.example.edu/idp/shibboleth');
    expect(rawQuery(url).get('aarc_idp_hint')).toBe('https%3A%2F%2Fidp.example.edu%2Fidp%2Fshibboleth');
    const tx = store.puts[0]?.transaction as Transaction;
    expect(tx.claims).toEqual({ id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } });
    expect(tx.idpHint).toBe('https://idp.example.edu/idp/shibboleth');
  });

  it('builds an id_token request without PKCE', async () => {
    const store = new RecordingStore();
    const client = await newClient({ responseType: 'id_token', transactions: store });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const params = new URL(url).searchParams;
    expect(params.get('response_type')).toBe('id_token');
    expect(params.has('code_challenge')).toBe(false);
    expect(store.puts[0]?.transaction.codeVerifier).toBeUndefined();
  });

  it('refuses an unknown idpHint before storing anything when hints are configured', async () => {
    const store = new RecordingStore();
    const known = new Set(['https://idp.known.example/idp']);
    const client = await newClient({ transactions: store, hints: known });
    const error = await rejection(
      client.createAuthorizationRequest({
        affiliation: 'student',
        idpHint: 'https://idp.unknown.example/idp',
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('unknown_hint');
    expect(store.puts).toHaveLength(0);
    await expect(
      client.createAuthorizationRequest({ affiliation: 'student', idpHint: 'https://idp.known.example/idp' }),
    ).resolves.toBeTruthy();
  });

  it('passes the context to the store and returns its Set-Cookie value', async () => {
    const store = new RecordingStore('av_tx_x=sealed; Path=/');
    const client = await newClient({ transactions: store });
    const { setCookie } = await client.createAuthorizationRequest(
      { affiliation: 'student' },
      { cookie: 'a=b' },
    );
    expect(setCookie).toBe('av_tx_x=sealed; Path=/');
    expect(store.puts[0]?.context).toEqual({ cookie: 'a=b' });
  });

  it.each([
    [{ affiliation: 'teacher' }, ScopeError],
    [{ affiliation: 'student', identifier: 'forever' }, ScopeError],
    [{ affiliation: 'student', scopes: ['employee'] }, ScopeError],
    [{ affiliation: 'student', claims: [] }, OptionsError],
    [{ affiliation: 'student', claims: { access_token: {} } }, OptionsError],
    [{ affiliation: 'student', claims: { id_token: 'reuse_detection' } }, OptionsError],
    [{ affiliation: 'student', idpHint: '' }, OptionsError],
  ])('refuses %j', async (request, type) => {
    const client = await newClient();
    await expect(client.createAuthorizationRequest(request as never)).rejects.toBeInstanceOf(type);
  });

  it('refuses userinfo claims on the id_token flow (userinfo is code flow only)', async () => {
    const client = await newClient({ responseType: 'id_token' });
    const error = await rejection(
      client.createAuthorizationRequest({
        affiliation: 'student',
        claims: { userinfo: { reuse_detection: null } },
      }),
    );
    expect(error).toBeInstanceOf(OptionsError);
    expect(error.message).toMatch(/userinfo/);
  });

  it('does not send an empty claims object', async () => {
    const client = await newClient();
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student', claims: {} });
    expect(new URL(url).searchParams.has('claims')).toBe(false);
  });
});
