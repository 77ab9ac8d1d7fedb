import { describe, expect, it } from 'vitest';
import { DocsSiteClient, DocsSiteError } from '../../src/docs-site.js';

// Regression: bad input to plugin methods must reject the returned promise (like the content
// methods do), never throw synchronously — a caller using `.catch()` would otherwise miss it.
// No request is sent for any of these, so no msw server is needed: a fetch that fails the test
// if it is ever called proves it.
const client = new DocsSiteClient({
  baseUrl: 'https://docs.example.org',
  fetch: () => {
    throw new Error('no request may be sent for invalid input');
  },
});

const cases: [string, () => Promise<unknown>][] = [
  ['forms.get(0)', () => client.forms.get(0)],
  ['forms.update(-1, {})', () => client.forms.update(-1, {})],
  ['forms.delete(1.5)', () => client.forms.delete(1.5)],
  ['forms.refill(0)', () => client.forms.refill(0)],
  ['kbNotifications.dismiss("")', () => client.kbNotifications.dismiss('')],
  ['layouts.get("1abc")', () => client.layouts.get('1abc')],
  ['kbSettings.update with GET', () => client.kbSettings.update({}, { method: 'GET' as unknown as 'POST' })],
];

describe('plugin methods reject invalid input instead of throwing', () => {
  it.each(cases)('%s returns a rejected promise with a DocsSiteError', async (_name, call) => {
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = call();
    }).not.toThrow();
    await expect(promise).rejects.toBeInstanceOf(DocsSiteError);
  });
});
