import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { newClient, useOp } from '../helpers/setup.js';

useOp();

// Regression: an idpHint holding a lone UTF-16 surrogate made encodeURIComponent throw a bare
// URIError. entityIDs are URIs, so white space and control characters are refused as well.
describe('createAuthorizationRequest refuses a malformed idpHint with OptionsError', () => {
  it.each([
    ['a lone high surrogate', 'https://idp.example.edu/\uD800'],
    ['a lone low surrogate', 'https://idp.example.edu/\uDC00x'],
    ['a space', 'https://idp.example.edu/ idp'],
    ['a newline', 'https://idp.example.edu/idp\n'],
    ['a NUL', 'https://idp.example.edu/\u0000'],
  ])('%s', async (_name, idpHint) => {
    const client = await newClient();
    await expect(
      client.createAuthorizationRequest({ affiliation: 'student', idpHint }),
    ).rejects.toBeInstanceOf(OptionsError);
  });

  it('accepts an entityID with non-ASCII characters (a well-formed surrogate pair included)', async () => {
    const client = await newClient();
    const idpHint = 'https://idp.universität.example/😀';
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student', idpHint });
    expect(new URL(url).searchParams.get('aarc_idp_hint')).toBe(idpHint);
  });
});
