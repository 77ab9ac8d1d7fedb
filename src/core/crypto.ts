/**
 * Hashes, keys and encodings on the Web Crypto API and `btoa`, which every runtime the SDK supports
 * has (Node, Bun, Deno, workerd, Vercel's Edge): no `node:crypto`, no `Buffer`. Hashes are async, as
 * in oauth4webapi and jose.
 */
const encoder = new TextEncoder();
const bytesOf = (data: Uint8Array | string) => (typeof data === 'string' ? encoder.encode(data) : data);

/** Standard base64 of bytes, or of a string's UTF-8 bytes. */
export function base64(data: Uint8Array | string): string {
  return btoa(Array.from(bytesOf(data), (byte) => String.fromCharCode(byte)).join(''));
}

/** base64url without padding (RFC 4648 §5), as JOSE writes it. */
export function base64url(data: Uint8Array | string): string {
  return base64(data).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** SHA-256 (or SHA-384 / SHA-512) of bytes or of a string's UTF-8 bytes. */
export async function digest(data: Uint8Array | string, hash = 'SHA-256'): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(hash, bytesOf(data) as Uint8Array<ArrayBuffer>));
}

/** HKDF-SHA-256 with an empty salt: 32 bytes of key material for `info`. */
export async function hkdfSha256(secret: Uint8Array, info: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, 'HKDF', false, [
    'deriveBits',
  ]);
  const params = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(info) };
  return new Uint8Array(await crypto.subtle.deriveBits(params, key, 256));
}
