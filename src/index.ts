export type { TransportErrorCode } from './core/errors.js';
export { AffiliationError, OptionsError, TransportError } from './core/errors.js';
export type { Logger } from './core/logger.js';
export type {
  DocsSiteRequestContext,
  HintsRefreshContext,
  OutcomeFields,
  SafeError,
  ServiceRequestContext,
  ValidationCallbackContext,
  ValidationStartContext,
} from './diagnostics/channels.js';
export { CHANNELS } from './diagnostics/channels.js';
export { closeDefaultDispatcher } from './http/dispatcher.js';
export type { Language } from './i18n/language.js';
export { LANGUAGES } from './i18n/language.js';
export type { ShopperTextCatalog, ShopperTextKey, ShopperTextOverrides } from './i18n/texts.js';
export { OfferLedgerError } from './ledger/errors.js';
export type { MemoryOfferLedgerOptions } from './ledger/memory.js';
export { MemoryOfferLedger } from './ledger/memory.js';
export type { ClaimOptions, OfferClaim, OfferLedger, OfferLedgerOptions } from './ledger/types.js';
export type { AuthorizationRequest, AuthorizationRequestOptions } from './rp/authorization.js';
export type { CallbackInput, ValidateCallbackOptions } from './rp/callback-input.js';
export { AffiliationClient } from './rp/client.js';
export type { ProviderMetadata } from './rp/discovery.js';
export type {
  AnyAffiliationError,
  ProviderErrorCode,
  ProviderErrorReason,
  ProviderErrorSource,
  StartedValidation,
  ValidationErrorCode,
} from './rp/errors.js';
export {
  PROVIDER_ERROR_CODES,
  ProviderError,
  ScopeError,
  VALIDATION_ERROR_CODES,
  ValidationError,
} from './rp/errors.js';
export type { CallbackHandlerOptions, RestartForm, ShopperMessage } from './rp/handler.js';
export type { AffiliationClientOptions } from './rp/options.js';
export type { FragmentRelayOptions, FragmentRelayPage } from './rp/relay.js';
export { fragmentRelayHtml } from './rp/relay.js';
export type { BuildScopeOptions, ParsedScope } from './rp/scope.js';
export { AFFILIATIONS, buildScope, encodeScopeForWire, IDENTIFIERS, parseScope } from './rp/scope.js';
export type {
  StartClient,
  StartFormField,
  StartHandlerOptions,
  StartRequestCheck,
  StartRequestErrorCode,
  StartRequestLike,
} from './rp/start.js';
export { checkStartRequest, StartRequestError } from './rp/start.js';
export type {
  CookieTransactionStoreOptions,
  MemoryTransactionStoreOptions,
} from './rp/transactions/index.js';
export { CookieTransactionStore, MemoryTransactionStore } from './rp/transactions/index.js';
export type {
  Affiliation,
  AffiliationResult,
  ClaimsRequest,
  HintLookup,
  Identifier,
  Transaction,
  TransactionContext,
  TransactionStore,
} from './rp/types.js';
