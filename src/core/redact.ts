/**
 * Redaction of secrets in anything the SDK logs or throws.
 *
 * Secret query/form/JSON parameters, Authorization headers, Basic and Bearer credentials, URL
 * userinfo and anything shaped like a JWT or JWE are replaced with `[REDACTED]`. Callers may add exact
 * secret values (a client secret, an application password) that must never appear either; those are
 * also removed in their URL-encoded, form-encoded and (for application passwords) space-free forms.
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
  'assertion',
  'state',
  'nonce',
];

/**
 * Names redacted in `key: value` / `"key": "value"` form (JSON, util.inspect output). `code` is left
 * out there on purpose: in JSON and in error objects it is an error code (`"code":"invalid_grant"`,
 * `code: 'ECONNRESET'`), while an authorization code only travels in query strings and form bodies,
 * which the `key=value` rule covers.
 */
const SECRET_KEYS = SECRET_PARAMS.filter((name) => name !== 'code');

const PARAM_RE = new RegExp(`([?&#;\\s"'{,(]|^)(${SECRET_PARAMS.join('|')})=([^&#\\s"']*)`, 'gi');
const KEY_RE = new RegExp(
  `([\\s"'{,(]|^)(${SECRET_KEYS.join('|')})(["']?\\s*:\\s*)(?:"[^"]*"|'[^']*'|[^\\s,}"']+)`,
  'gi',
);
const AUTH_HEADER_RE =
  /\b(authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(?:(basic|bearer|dpop|digest)\s+)?[^\s"',}]+/gi;
const SCHEME_RE = /\b(Basic|Bearer|DPoP)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** Compact JWS (3 parts) and JWE (5 parts); the header always starts with `eyJ` (`{"`). */
const JWT_RE = /\beyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){1,4}/g;
const USERINFO_RE = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s?#]+@/gi;

export const REDACTED = '[REDACTED]';

/** Shortest configured secret that is redacted; shorter values would blank out ordinary text. */
export const MIN_SECRET_LENGTH = 4;

function secretVariants(secrets: readonly (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    out.add(secret);
    out.add(encodeURIComponent(secret));
    out.add(encodeURIComponent(secret).replace(/%20/g, '+'));
    // WordPress application passwords are shown with spaces and accepted without them.
    const compact = secret.replace(/\s+/g, '');
    if (compact.length >= MIN_SECRET_LENGTH) out.add(compact);
  }
  // Longest first, so a secret that contains another is removed whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** Redact secrets from free text (messages, URLs, bodies, header dumps). */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = String(text);
  for (const secret of secretVariants(secrets)) out = out.split(secret).join(REDACTED);
  return out
    .replace(USERINFO_RE, `$1${REDACTED}@`)
    .replace(AUTH_HEADER_RE, (_m, name: string, sep: string, scheme: string | undefined) =>
      scheme ? `${name}${sep}${scheme} ${REDACTED}` : `${name}${sep}${REDACTED}`,
    )
    .replace(SCHEME_RE, `$1 ${REDACTED}`)
    .replace(JWT_RE, REDACTED)
    .replace(PARAM_RE, (_m, pre: string, name: string) => `${pre}${name}=${REDACTED}`)
    .replace(KEY_RE, (_m, pre: string, name: string, sep: string) => `${pre}${name}${sep}${REDACTED}`);
}

/** Redact a URL for logs and error messages: userinfo and secret parameters removed. */
export function redactUrl(url: string | URL, secrets: readonly (string | undefined)[] = []): string {
  return redact(typeof url === 'string' ? url : url.href, secrets);
}

/** Field names whose values are dropped whole, whatever they look like. */
const SECRET_FIELD_RE =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-wp-nonce|password|application_?password|client_?secret|secret|code_?verifier|(access|id|refresh)_?token|token|assertion|client_assertion)$/i;

/**
 * Redact a structured value (log fields): strings are redacted, fields with secret names are
 * replaced whole, errors become `{ name, message, code }`, nesting is cut at a small depth.
 */
export function redactValue(
  value: unknown,
  secrets: readonly (string | undefined)[] = [],
  depth = 0,
): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? String(typeof value) : value;
  }
  if (value instanceof URL) return redactUrl(value, secrets);
  if (value instanceof Date) return value;
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return {
      name: value.name,
      message: redact(value.message, secrets),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  if (depth >= 4) return '[Object]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactValue(v, secrets, depth + 1));
  if (typeof Headers !== 'undefined' && value instanceof Headers) {
    return redactValue(Object.fromEntries(value.entries()), secrets, depth);
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      SECRET_FIELD_RE.test(key) && v !== undefined && v !== null
        ? REDACTED
        : redactValue(v, secrets, depth + 1);
  }
  return out;
}
