import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TRANSPORT_ERROR_CODES } from '../../src/core/errors.js';
import { ProviderError, VALIDATION_ERROR_CODES } from '../../src/rp/errors.js';

// docs/errors.md is the merchant's reference: every code the SDK can throw must be explained there.
const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

/** The codes listed in the first column of a table row: "| `code` | …" or "| `a` / `b` | …". */
const documented = new Set(
  [...doc.matchAll(/^\|([^|\n]+)\|/gm)].flatMap((row) =>
    [...(row[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]),
  ),
);

// The service's own error codes (spec 7.1), both spellings of unauthorised_client.
const PROVIDER_CODES = [
  'access_denied',
  'invalid_scope',
  'invalid_request',
  'unauthorised_client',
  'unauthorized_client',
  'invalid_grant',
  'invalid_client',
  'invalid_token',
];

describe('docs/errors.md', () => {
  it.each([...VALIDATION_ERROR_CODES])('documents the ValidationError code %s', (code) => {
    expect(documented.has(code)).toBe(true);
  });

  it.each([...TRANSPORT_ERROR_CODES])('documents the TransportError code %s', (code) => {
    expect(documented.has(code)).toBe(true);
  });

  it.each(PROVIDER_CODES)('documents the provider error code %s', (code) => {
    expect(documented.has(code)).toBe(true);
  });

  it('documents both error pages of the service', () => {
    expect(doc).toContain('error-client-id');
    expect(doc).toContain('error-redirect-uri');
  });
});

describe('docs/errors.md: the reasons of ProviderError', () => {
  const reasons = [
    ['unknown_institution', 'entity_id error'],
    ['no_affiliation', 'no affiliation available for this user'],
    ['affiliation_mismatch', 'affiliation does not match requested validation'],
    ['consent_denied', 'User Consent Denied'],
    ['authentication_failed', 'authentication failed'],
    ['validation_not_allowed', 'Requested validation not allowed.'],
  ] as const;
  it.each(reasons)(
    'documents %s with the service description and the message the shopper sees',
    (reason, description) => {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${reason}\` |`));
      expect(row, reason).toBeDefined();
      expect(row).toContain(`\`${description}\``);
      const error = ProviderError.from({ error: 'access_denied', description, source: 'authorization' });
      expect(error.reason).toBe(reason);
      expect(row).toContain(`*${error.userMessage}*`);
    },
  );
});
