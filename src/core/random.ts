import { base64url } from './crypto.js';

/** `bytes` bytes from the CSPRNG as base64url. */
export function randomBase64url(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** 256 bits from the CSPRNG as base64url (43 characters): `state`, `nonce`, PKCE verifier, cookie values. */
export function random256(): string {
  return randomBase64url(32);
}
