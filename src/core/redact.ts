/**
 * Redaction of secrets in anything the SDK logs or throws.
 *
 * Secret query/form parameters, Authorization headers, URL userinfo and anything shaped like a JWT
 * are replaced with `[REDACTED]`. Callers may add exact secret values (a client secret, an
 * application password) that must never appear either.
 */
const SECRET_PARAMS = [
  'client_secret',
  'code',
  'code_verifier',
  'access_token',
  'id_token',
  'refresh_token',
  'token',
  'password',
  'application_password',
  'client_assertion',
  'state',
  'nonce',
];

const PARAM_RE = new RegExp(`([?&#;\\s"]|^)(${SECRET_PARAMS.join('|')})(=|"\\s*:\\s*")([^&#\\s"]*)`, 'gi');
const AUTH_HEADER_RE =
  /\b(authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(basic|bearer|dpop)\s+[^\s"',}]+/gi;
const SCHEME_RE = /\b(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/g;
const JWT_RE = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
const USERINFO_RE = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s?#]+@/gi;

export const REDACTED = '[REDACTED]';

/** Redact secrets from free text (messages, URLs, bodies). */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text
    .replace(USERINFO_RE, `$1${REDACTED}@`)
    .replace(AUTH_HEADER_RE, `$1$2$3 ${REDACTED}`)
    .replace(SCHEME_RE, `$1 ${REDACTED}`)
    .replace(JWT_RE, REDACTED)
    .replace(PARAM_RE, (_m, pre: string, name: string, eq: string) => `${pre}${name}${eq}${REDACTED}`);
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Redact a URL for logs and error messages: userinfo and secret parameters removed. */
export function redactUrl(url: string | URL): string {
  return redact(typeof url === 'string' ? url : url.href);
}
