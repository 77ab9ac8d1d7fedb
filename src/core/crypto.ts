/**
 * Hashes, keys and encodings on the Web Crypto API and `btoa`, which every runtime the SDK supports
 * has (Node, Bun, Deno, workerd, Vercel's Edge): no `node:crypto`, no `Buffer`. Hashes are async, as
 * in oauth4webapi and jose.
 */
const encoder = new TextEncoder();

function binary(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i] as number);
  return out;
}

/** Standard base64 of bytes, or of a string's UTF-8 bytes. */
export function base64(data: Uint8Array | string): string {
  return btoa(binary(typeof data === 'string' ? encoder.encode(data) : data));
}

/** base64url without padding (RFC 4648 §5), as JOSE writes it. */
export function base64url(data: Uint8Array | string): string {
  return base64(data).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The `Authorization` value of HTTP Basic credentials (RFC 7617, UTF-8). */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${base64(`${user}:${password}`)}`;
}

/** SHA-256 (or SHA-384 / SHA-512) of bytes or of a string's UTF-8 bytes. */
export async function digest(
  data: Uint8Array | string,
  hash: 'SHA-256' | 'SHA-384' | 'SHA-512' = 'SHA-256',
): Promise<Uint8Array> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest(hash, bytes as Uint8Array<ArrayBuffer>));
}

/** HKDF-SHA-256 with an empty salt: 32 bytes of key material for `info`. */
export async function hkdfSha256(secret: Uint8Array, info: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, 'HKDF', false, [
    'deriveBits',
  ]);
  const params = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(info) };
  return new Uint8Array(await crypto.subtle.deriveBits(params, key, 256));
}
