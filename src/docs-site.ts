export { AffiliationError, TransportError } from './core/errors.js';
