import { randomFillSync } from 'node:crypto';

/**
 * Random bytes come from a pool refilled from the CSPRNG 4 KiB at a time: one `randomBytes(32)`
 * call costs several microseconds of fixed overhead, a slice of the pool about a tenth of that. A
 * slice is zeroed as soon as it is read, so the pool never holds a value that was handed out.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** 256 bits from the CSPRNG as base64url (43 characters): `state`, `nonce`, PKCE verifier, cookie values. */
export function random256(): string {
  if (offset + 32 > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const value = pool.toString('base64url', offset, offset + 32);
  pool.fill(0, offset, offset + 32);
  offset += 32;
  return value;
}
