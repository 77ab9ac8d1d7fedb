export { AffiliationError } from './core/errors.js';
