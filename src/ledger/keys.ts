import { base64url, hkdfSha256 } from '../core/crypto.js';
import { OptionsError } from '../core/errors.js';
import { describe, integerOption, secretOption } from '../core/options.js';
import type { AffiliationResult } from '../rp/types.js';
import { OfferLedgerError } from './errors.js';
import type { ClaimOptions, OfferLedgerOptions } from './types.js';

const HKDF_INFO = 'affiliation-validation/offer-ledger/v1';
/** Most identifying values of one result; real results carry one or two. */
export const MAX_IDENTIFIERS = 64;
const MAX_OFFER_ID = 256;
/** Longest retention: 100 years, in ms (beyond that, leave `retentionMs` out: forever). */
const MAX_RETENTION_MS = 100 * 365 * 24 * 60 * 60 * 1000;
const encoder = new TextEncoder();

/** The keys of one claim: a tag naming the offer, and one HMAC per identifying value. */
export interface ClaimKeys {
  offer: string;
  ids: string[];
  /** Retention of this claim in ms, or undefined for forever. */
  retentionMs: number | undefined;
}

/**
 * Everything the ledger implementations share: checking options and arguments, and turning a
 * result into HMAC keys. Never keeps a raw value.
 */
export class LedgerKeys {
  readonly #secret: Uint8Array;
  #key: Promise<CryptoKey> | undefined;
  readonly #refuse: boolean;
  readonly #retentionMs: number | undefined;

  constructor(options: OfferLedgerOptions, name: string) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError(
        `${name} options must be an object with a \`secret\` and \`whenUnidentifiable\``,
      );
    }
    this.#secret = secretOption(options.secret);
    const when = options.whenUnidentifiable;
    if (when !== 'refuse' && when !== 'allow') {
      throw new OptionsError(
        `Option \`whenUnidentifiable\` is required: 'refuse' (a result without reuse_detection and with a transient subject cannot claim) or 'allow' (it always claims, and nothing is recorded), got ${describe(when)}`,
      );
    }
    this.#refuse = when === 'refuse';
    this.#retentionMs = integerOption('retentionMs', options.retentionMs, undefined, {
      max: MAX_RETENTION_MS,
    });
  }

  /**
   * The keys of a claim, or `undefined` when the result identifies nobody and the ledger allows
   * that.
   *
   * @throws {OptionsError} for a malformed offer id, result or option.
   * @throws {OfferLedgerError} when the result identifies nobody and the ledger refuses that.
   */
  async keysFor(
    offerId: string,
    result: AffiliationResult,
    options?: ClaimOptions,
  ): Promise<ClaimKeys | undefined> {
    if (typeof offerId !== 'string' || offerId === '' || offerId.length > MAX_OFFER_ID) {
      throw new OptionsError(
        `\`offerId\` must be a string of 1 to ${MAX_OFFER_ID} characters, got ${describe(offerId)}`,
      );
    }
    if (typeof result !== 'object' || result === null) {
      throw new OptionsError('`result` must be the AffiliationResult that validateCallback returned');
    }
    if (options !== undefined && (typeof options !== 'object' || options === null)) {
      throw new OptionsError('claim options must be an object');
    }
    const retentionMs = integerOption('retentionMs', options?.retentionMs, this.#retentionMs, {
      max: MAX_RETENTION_MS,
    });
    const values = new Set<string>();
    const reuse = result.reuseDetection;
    if (reuse !== undefined) {
      if (!Array.isArray(reuse) || reuse.some((v) => typeof v !== 'string')) {
        throw new OptionsError('`result.reuseDetection` must be a list of strings');
      }
      // An empty string would be the same "identifier" for everyone: it identifies nobody.
      for (const value of reuse) if (value !== '') values.add(JSON.stringify(['reuse_detection', value]));
    }
    if (result.identifier === 'persistent') {
      if (typeof result.subject !== 'string' || result.subject === '') {
        throw new OptionsError('`result.subject` must be a non-empty string for a persistent identifier');
      }
      values.add(JSON.stringify(['sub', result.subject]));
    } else if (result.identifier !== 'transient') {
      throw new OptionsError(
        `\`result.identifier\` must be 'persistent' or 'transient', got ${describe(result.identifier)}`,
      );
    }
    if (values.size > MAX_IDENTIFIERS) {
      throw new OptionsError(
        `\`result.reuseDetection\` holds ${values.size} values; an offer ledger takes at most ${MAX_IDENTIFIERS}`,
      );
    }
    if (values.size === 0) {
      if (this.#refuse) {
        throw new OfferLedgerError(
          'This result cannot claim the offer: it has no reuse_detection value and a transient subject, so a returning shopper could not be recognised. ' +
            "Request reuse_detection (claims: { id_token: { reuse_detection: null } }) or identifier: 'persistent', or build the ledger with whenUnidentifiable: 'allow'",
        );
      }
      return undefined;
    }
    const offer = (await this.#mac(JSON.stringify(['offer', offerId]))).slice(0, 22);
    const ids = await Promise.all([...values].map((v) => this.#mac(`${offerId.length}:${offerId}${v}`)));
    return { offer, ids, retentionMs };
  }

  async #mac(data: string): Promise<string> {
    // The HMAC key is derived on first use: Web Crypto is async.
    this.#key ??= hkdfSha256(this.#secret, HKDF_INFO).then((raw) =>
      crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    );
    return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key, encoder.encode(data))));
  }
}
