import { randomBytes } from 'node:crypto';

/** 256 bits from the CSPRNG as base64url (43 characters): `state`, `nonce`, PKCE verifier, cookie values. */
export function random256(): string {
  return randomBytes(32).toString('base64url');
}
