/**
 * The asymmetric JWS algorithms of RFC 7518 that the test provider signs ID tokens with: keys the
 * relying party fetches from `jwks_uri`, never `none` or HMAC.
 */
export const JWS_ALGS = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const);

/** One of {@link JWS_ALGS}. */
export type JwsAlg = (typeof JWS_ALGS)[number];
