/**
 * Every `userMessage` an error of the SDK can carry is in the catalogs: shown in German (or any other
 * language) it is German, while `error.userMessage` and `error.message` stay English.
 */
import { expect, it } from 'vitest';
import {
  AffiliationError,
  OptionsError,
  TRANSPORT_ERROR_CODES,
  TransportError,
} from '../../src/core/errors.js';
import { DocsSiteError } from '../../src/docs-site/errors.js';
import { DocsSyncError } from '../../src/docs-site/sync/errors.js';
import { HintFeedError } from '../../src/hints/errors.js';
import { LANGUAGES } from '../../src/i18n/language.js';
import { ShopperTexts } from '../../src/i18n/texts.js';
import { OfferLedgerError } from '../../src/ledger/errors.js';
import { StoreError } from '../../src/redis/errors.js';
import {
  PROVIDER_ERROR_CODES,
  ProviderError,
  ScopeError,
  VALIDATION_ERROR_CODES,
  ValidationError,
} from '../../src/rp/errors.js';
import { createStartHandler, StartRequestError } from '../../src/rp/start.js';

const DESCRIPTIONS = [
  undefined,
  'entity_id error',
  'no affiliation available for this user',
  'affiliation does not match requested validation',
  'User Consent Denied',
  'authentication failed',
  'Requested validation not allowed.',
];

/** The start route's refusals, as a shopper's browser gets them. */
async function startRefusals(): Promise<AffiliationError[]> {
  const errors: AffiliationError[] = [];
  const client = {
    responseType: 'code' as const,
    createAuthorizationRequest: async () => ({ url: 'https://op.example/authorize', state: 's' }),
  };
  const start = createStartHandler(client, 'https://shop.example/callback', {
    formFields: ['affiliation', 'institution'],
    affiliations: ['student'],
    onError: (error) => {
      errors.push(error);
      return new Response(null, { status: 400 });
    },
  });
  const post = (body: string, headers: Record<string, string> = {}) =>
    start(
      new Request('https://shop.example/start', {
        method: 'POST',
        headers: {
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
          ...headers,
        },
        body,
      }),
    );
  await start(new Request('https://shop.example/start'));
  await post('affiliation=student', { 'sec-fetch-site': 'cross-site' });
  await post('affiliation=student&affiliation=staff');
  await post('affiliation=employee');
  await post('identifier=persistent');
  await post('x', { 'content-type': 'text/plain' });
  return errors;
}

it('every userMessage of every error code is in every catalog', async () => {
  const errors: AffiliationError[] = [
    new AffiliationError('x', { code: 'x' }),
    new OptionsError('x'),
    new ScopeError('x'),
    ...TRANSPORT_ERROR_CODES.map((code) => new TransportError('x', { code })),
    ...PROVIDER_ERROR_CODES.flatMap((error) =>
      (['authorization', 'token', 'userinfo'] as const).flatMap((source) =>
        DESCRIPTIONS.map((description) => ProviderError.from({ error, description, source })),
      ),
    ),
    ...VALIDATION_ERROR_CODES.map((code) => new ValidationError('x', { code })),
    new StartRequestError('x', { code: 'cross_site_start', status: 403 }),
    ...(await startRefusals()),
    new StoreError('x', { code: 'store_unavailable' }),
    new StoreError('x', { code: 'invalid_client' as never }),
    new OfferLedgerError('x'),
    new HintFeedError('x', { code: 'refresh_failed' }),
    new DocsSiteError('x', { code: 'http_error' as never }),
    new DocsSyncError([{ code: 'invalid_folder' as never, message: 'x' }]),
  ];
  const messages = new Set(errors.map((e) => e.userMessage));
  expect(messages.size).toBeGreaterThan(30);
  const texts = await ShopperTexts.load();
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    const speaker = texts.speaker(undefined, lang);
    for (const message of messages) {
      expect(speaker.userMessage({ userMessage: message }), `${lang}: ${message}`).not.toBe(message);
    }
  }
});
