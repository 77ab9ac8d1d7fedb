/**
 * Issue 11 item 1: a callback handled twice by one browser (a reload, a double click) gets ONE
 * classification whatever the store — `replayed_transaction`, with a message that does not blame
 * the shop — sequentially and concurrently, on one app instance or on two.
 */
import { describe, expect, it } from 'vitest';
import type { AffiliationError } from '../../src/core/errors.js';
import type { AffiliationClient } from '../../src/rp/client.js';
import { ValidationError } from '../../src/rp/errors.js';
import { CookieTransactionStore, MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import type { TransactionStore } from '../../src/rp/types.js';
import { newClient, useOp } from '../helpers/setup.js';
import { CookieJar } from './transactions-fixtures.js';

const { op } = useOp();
const SECRET = 'a-32-byte-or-longer-test-secret-value!!';

const stores: [string, () => TransactionStore][] = [
  ['MemoryTransactionStore', () => new MemoryTransactionStore()],
  ['CookieTransactionStore', () => new CookieTransactionStore({ secret: SECRET })],
];

/** The shop's callback route: the result's affiliation, or the error's code and userMessage. */
function route(client: AffiliationClient) {
  return client.callbackHandler({
    onSuccess: (result) => Response.json({ ok: result.affiliation }),
    onError: (error: AffiliationError) =>
      Response.json({ code: error.code, userMessage: error.userMessage }, { status: 400 }),
  });
}

async function started(client: AffiliationClient, jar: CookieJar): Promise<string> {
  const { url, setCookie } = await client.createAuthorizationRequest(
    { affiliation: 'student' },
    { cookie: jar.header() },
  );
  jar.apply(setCookie);
  return op.authorize(url);
}

async function get(handler: (r: Request) => Promise<Response>, url: string, jar: CookieJar) {
  const response = await handler(new Request(url, { headers: { cookie: jar.header() } }));
  return { response, body: (await response.json()) as Record<string, string> };
}

describe.each(stores)('%s: a callback handled twice', (_name, make) => {
  it('a reload after the answer: replayed_transaction, telling the shopper it may already have succeeded', async () => {
    const client = await newClient({ transactions: make() });
    const handler = route(client);
    const jar = new CookieJar();
    const callback = await started(client, jar);
    const first = await get(handler, callback, jar);
    expect(first.body).toEqual({ ok: 'student' });
    for (const value of first.response.headers.getSetCookie()) jar.apply(value);
    const tokenCalls = op.counts.token;
    const second = await get(handler, callback, jar);
    expect(second.response.status).toBe(400);
    expect(second.body.code).toBe('replayed_transaction');
    expect(second.body.userMessage).toMatch(/already used, so your validation may already have succeeded/);
    expect(second.body.userMessage).toMatch(/start the validation again/);
    expect(second.body.userMessage).not.toMatch(/shop/);
    expect(op.counts.token).toBe(tokenCalls); // decided before any exchange
  });

  it('a double click (both requests in flight at once, same cookies): one succeeds, the other is replayed_transaction', async () => {
    const client = await newClient({ transactions: make() });
    const handler = route(client);
    const jar = new CookieJar();
    const callback = await started(client, jar);
    const answers = await Promise.all([get(handler, callback, jar), get(handler, callback, jar)]);
    const bodies = answers.map((a) => a.body);
    expect(bodies).toContainEqual({ ok: 'student' });
    expect(bodies.filter((b) => b.code === 'replayed_transaction')).toHaveLength(1);
  });
});

describe('CookieTransactionStore on two app instances', () => {
  it('a reload that reaches the other instance: replayed_transaction from the "used" marker', async () => {
    const a = await newClient({ transactions: new CookieTransactionStore({ secret: SECRET }) });
    const b = await newClient({ transactions: new CookieTransactionStore({ secret: SECRET }) });
    const jar = new CookieJar();
    const callback = await started(a, jar);
    const first = await get(route(a), callback, jar);
    expect(first.body).toEqual({ ok: 'student' });
    for (const value of first.response.headers.getSetCookie()) jar.apply(value);
    expect((await get(route(b), callback, jar)).body.code).toBe('replayed_transaction');
  });

  it('a double click whose requests reach both instances at once: the refused code is replayed_transaction too', async () => {
    const a = await newClient({ transactions: new CookieTransactionStore({ secret: SECRET }) });
    const b = await newClient({ transactions: new CookieTransactionStore({ secret: SECRET }) });
    const jar = new CookieJar();
    const callback = await started(a, jar);
    const cookie = jar.header();
    // Both instances open the seal; the service's code is single-use.
    const results = await Promise.allSettled([
      a.validateCallback(callback, { cookie }),
      b.validateCallback(callback, { cookie }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ValidationError);
    expect((refused.reason as ValidationError).code).toBe('replayed_transaction');
    expect((refused.reason as ValidationError).message).toMatch(/refused the authorization code/);
    expect((refused.reason as Error).cause).toMatchObject({ error: 'invalid_request', source: 'token' });
  });
});
