/**
 * The provider's signing keys: one active key signs, keys replaced by `rotate()` stay published in
 * the JWKS for a grace period so tokens they signed still verify, then disappear.
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { TestSigningAlg } from './options.js';

interface RingKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** When the key stopped signing (ms since epoch); undefined for the active key. */
  retiredAt: number | undefined;
}

export class KeyRing {
  private keys: RingKey[] = [];

  private constructor(
    readonly alg: TestSigningAlg,
    private readonly now: () => number,
    private readonly retiredKeyTtlMs: number,
  ) {}

  static async create(alg: TestSigningAlg, now: () => number, retiredKeyTtlMs: number): Promise<KeyRing> {
    const ring = new KeyRing(alg, now, retiredKeyTtlMs);
    await ring.rotate(true);
    return ring;
  }

  /** The `kid` of the key that signs now: `create()` makes one, `rotate()` puts the new one first. */
  get activeKid(): string {
    return this.keys[0]!.kid;
  }

  /** Make a new key the signing key; the previous one is kept for verification unless `keepPrevious` is false. */
  async rotate(keepPrevious: boolean): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair(this.alg, { extractable: true });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const retiredAt = this.now();
    const previous = keepPrevious ? this.keys : [];
    this.keys = [
      { kid, privateKey, publicJwk: { ...jwk, kid, alg: this.alg, use: 'sig' }, retiredAt: undefined },
      ...previous.map((key) => ({ ...key, retiredAt: key.retiredAt ?? retiredAt })),
    ];
    return kid;
  }

  /** The public JWKS: the active key first, then retired keys still within their grace period. */
  jwks(): { keys: JWK[] } {
    const now = this.now();
    this.keys = this.keys.filter(
      (k) => k.retiredAt === undefined || now - k.retiredAt < this.retiredKeyTtlMs,
    );
    return { keys: this.keys.map((k) => ({ ...k.publicJwk })) };
  }

  /** Sign a JWT with the active key (header: alg, kid, typ JWT). */
  async sign(claims: Record<string, unknown>): Promise<string> {
    const key = this.keys[0]!;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: this.alg, kid: key.kid, typ: 'JWT' })
      .sign(key.privateKey);
  }

  /** `at_hash` / `c_hash` of OpenID Connect Core 3.1.3.6: left half of the hash the algorithm uses. */
  halfHash(value: string): string {
    const bits = this.alg.endsWith('512') ? 512 : this.alg.endsWith('384') ? 384 : 256;
    const digest = createHash(`sha${bits}`).update(value, 'ascii').digest();
    return digest.subarray(0, digest.length / 2).toString('base64url');
  }
}
