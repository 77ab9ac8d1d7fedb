import type { Affiliation, Identifier } from '../core/scope-values.js';

export type { Affiliation, Identifier } from '../core/scope-values.js';

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
 * A store that binds transactions to the browser (a cookie set by `put`, checked by `take`) says so
 * with `bindsToBrowser: true`; the client then refuses a callback whose cookies it was not given
 * (fail closed). Such a store keeps a bounded cookie budget: at most a few cookies per browser,
 * whatever the number of starts (see `put`).
 *
 * @group Transactions
 */
export interface TransactionStore {
  /**
   * `true` when `put` returns a cookie that `take` checks (the transaction is bound to the browser
   * that started it): `take` then needs `context.cookie`, and the client refuses a callback URL
   * given without `{ cookie }`. Absent counts as `false`.
   */
  readonly bindsToBrowser?: boolean;
  /**
   * Store a transaction. May return ONE `Set-Cookie` header value the caller must send with the
   * redirect (`createAuthorizationRequest` returns it as `setCookie`): the sealed transaction of a
   * stateless store, or the cookie that binds a server-side transaction to the browser.
   *
   * `context.cookie` is the START request's `Cookie` header (`''` or `null` when it had none,
   * `undefined` when the caller does not know it). A store that sets cookies uses it to keep its
   * budget: it reuses one of a fixed set of cookie names, replacing the browser's oldest
   * transaction when all are taken, so one `Set-Cookie` both stores the new transaction and evicts
   * the old one. Without it the store cannot see what the browser holds and keeps one transaction
   * per browser.
   */
  put(transaction: Transaction, context?: TransactionContext): Promise<undefined | string>;
  /**
   * Take the transaction stored under `state`, exactly once. `context.cookie` is the CALLBACK
   * request's `Cookie` header; a store that binds to the browser refuses to work without it.
   */
  take(state: string, context?: TransactionContext): Promise<Transaction | undefined>;
  /**
   * The `Set-Cookie` header value to send with the callback's response (success or error), or
   * `undefined` when there is nothing to change. `context.cookie` is the callback request's
   * `Cookie` header: only a cookie that belongs to `state` is touched, never one of another
   * validation in progress in the same browser. `callbackHandler()` sends it for you.
   */
  clearCookie?(state: string, context?: TransactionContext): string | undefined;
}

/**
 * Request data a store needs: the request's cookies, to find its transaction, to check the browser
 * binding, or to keep the cookie budget.
 *
 * @group Transactions
 */
export interface TransactionContext {
  /**
   * The request's `Cookie` header: `''` or `null` when it carried none, `undefined` when the caller
   * does not know (a bare callback URL). Pass `request.headers.get('cookie')` (Web `Request`) or
   * `req.headers.cookie` (Node).
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
  /**
   * `false` while the lookup has no list yet (a `HintFeed` before its cache file or first successful
   * refresh): an `idpHint` is then refused saying that the feed has not loaded, not that the
   * institution is unknown. Absent means loaded.
   */
  readonly loaded?: boolean;
  /**
   * Told when the service did not resolve this hint (`access_denied`, `entity_id error`): a
   * `HintFeed` stops offering it until its next refresh confirms it.
   */
  reportStale?(entityId: string): void;
}
