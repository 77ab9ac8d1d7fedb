/** The four affiliation scopes of the service (spec 2.2). @group Types */
export type Affiliation = 'student' | 'faculty+staff' | 'employee' | 'member';
/** The two identifier scopes of the service (spec 2.2); `transient` when none is requested. @group Types */
export type Identifier = 'persistent' | 'transient';

/** The `claims` request parameter (spec 2.3). @group Types */
export interface ClaimsRequest {
  id_token?: { reuse_detection: null } | undefined;
  userinfo?: { reuse_detection: null } | undefined;
}

/**
 * One started validation, stored by `state` between the redirect and the callback and taken
 * exactly once. Holds secrets (nonce, PKCE verifier): stores must keep it server-side or sealed.
 *
 * @group Transactions
 */
export interface Transaction {
  state: string;
  nonce: string;
  /** PKCE verifier (code flow only). */
  codeVerifier?: string | undefined;
  responseType: 'code' | 'id_token';
  /** The scope values sent, in wire order, including `openid`. */
  scopes: string[];
  affiliation: Affiliation;
  /** The identifier requested explicitly, if any. */
  identifier?: Identifier | undefined;
  /** The claims request sent, if any. */
  claims?: ClaimsRequest | undefined;
  /** The `aarc_idp_hint` sent, if any. */
  idpHint?: string | undefined;
  /** The redirect URI used for this request. */
  redirectUri: string;
  /** Creation time, ms since epoch. */
  createdAt: number;
  /** Expiry time, ms since epoch. */
  expiresAt: number;
}

/**
 * Where transactions live between the redirect and the callback. `take` must return a
 * transaction at most once (a second `take` of the same state returns `undefined` or throws a
 * `ValidationError` with code `replayed_transaction`), and never one that has expired.
 *
 * @group Transactions
 */
export interface TransactionStore {
  /**
   * Store a transaction. May return a `Set-Cookie` header value the caller must hand to the browser
   * with the redirect (`createAuthorizationRequest` returns it as `setCookie`): the sealed
   * transaction of a stateless store, or the cookie that binds a server-side transaction to the
   * browser. A store that returns one should check it in `take` (`context.cookie`).
   */
  put(transaction: Transaction, context?: TransactionContext): Promise<undefined | string>;
  /** Take the transaction stored under `state`, exactly once. */
  take(state: string, context?: TransactionContext): Promise<Transaction | undefined>;
}

/**
 * Request data a store needs to find its transaction or to check its browser binding (the
 * callback's cookies).
 */
export interface TransactionContext {
  /**
   * The `cookie` header of the request: `''` when it carried none, `undefined` when the caller did
   * not say (a bare callback URL).
   */
  cookie?: string | null | undefined;
}

/** The result of a successful validation. @group Types */
export interface AffiliationResult {
  /** The affiliation confirmed by the service (from `returned_scopes`). */
  affiliation: Affiliation;
  /** The identifier kind confirmed (`transient` when none was requested). */
  identifier: Identifier;
  /** `sub`: per transaction when transient, per shopper when persistent. */
  subject: string;
  /** The service's `transaction_id` (a UUID). */
  transactionId: string;
  /** Present when an `idpHint` was sent: the service asserts affiliation with this institution. */
  institution?: { entityId: string };
  /** `reuse_detection` values, when requested and released. */
  reuseDetection?: string[];
  authTime: Date;
  expiresAt: Date;
  /** All ID token claims. */
  claims: Record<string, unknown>;
  /** The userinfo response, when userinfo claims were requested. */
  userinfo?: Record<string, unknown>;
}

/**
 * An object that knows the valid `aarc_idp_hint` values — a `HintFeed` from
 * `affiliation-validation/hints`, or anything with `has(entityId)`.
 *
 * @group Options
 */
export interface HintLookup {
  has(entityId: string): boolean;
}
