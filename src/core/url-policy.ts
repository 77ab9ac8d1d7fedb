/**
 * The one rule for URLs the SDK talks to or sends a browser to: `https:`, or plain `http:` only on a
 * loopback host, so local tests and development work while nothing crosses a network in clear text.
 * Every part of the package (RP discovery, hint feeds, the docs-site client, the CLI) asks here.
 */

/** 127.0.0.0/8, four decimal octets of 0–255 (no shorthand such as `127.1`: WHATWG URL expands it). */
const LOOPBACK_V4 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Whether `hostname` (as in `URL.hostname`) names this machine: `localhost`, any `*.localhost`
 * (RFC 6761 reserves them for loopback, and browsers resolve them so), 127.0.0.0/8 or `[::1]`.
 * Bare `::1` is accepted too for callers that strip the brackets.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || h === '::1' || LOOPBACK_V4.test(h);
}

/** `https:`, or `http:` on a loopback host ({@link isLoopbackHost}). */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
