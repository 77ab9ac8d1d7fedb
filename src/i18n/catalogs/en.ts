// catalog of shopper texts: English (en), the source of every other catalog
/**
 * Every text the SDK shows a shopper, in English: the pages (callback error, start refusal, fragment
 * relay) and each error's `userMessage`. The other catalogs have exactly these keys and the same
 * `{placeholders}`; a merchant overrides any of them per language (`texts` of `AffiliationClient.discover`).
 */
export const texts = {
  // The callback's error page (callbackHandler's default onError).
  'page.failed.title': 'Validation failed',
  'page.failed.back': 'Back to the shop',
  'page.failed.code': 'Error code: {code}',
  'page.failed.restart': 'Choose your institution again',
  // The start route's refusal page (startHandler's default onError).
  'page.not_started.title': 'Validation not started',
  // The fragment relay page.
  'relay.title': 'Finishing validation',
  'relay.working': 'Finishing the validation…',
  'relay.sending': 'Sending the result of the validation…',
  'relay.empty':
    'No validation result was found on this page. Please go back to the shop and start the validation again.',
  'relay.noscript':
    'JavaScript is needed to finish the validation. Please enable it and start the validation again.',

  // userMessage of every error.
  'error.unknown': 'Something went wrong while checking your affiliation. Please try again.',
  'error.unreachable': 'The affiliation service could not be reached just now. Please try again in a moment.',
  'error.misconfigured': 'This shop is not configured correctly. Please contact the shop.',
  'error.scope': 'This shop asked for a kind of validation that is not possible. Please contact the shop.',
  // ProviderError, by the service's reason (access_denied descriptions, spec 7.2).
  'provider.unknown_institution':
    'The validation service did not recognise the institution that was chosen. This was not your fault: please choose your institution again.',
  'provider.no_affiliation':
    'Your institution did not confirm any affiliation for the account you signed in with. Please check that you used your account at this institution, or ask its help desk.',
  'provider.affiliation_mismatch':
    'Your institution did not confirm the affiliation this offer is for. If the shop offers another one (for example staff instead of student), please choose that one.',
  'provider.consent_denied':
    'The shop can check your affiliation only with your consent. To get the offer, start again and agree to share your affiliation.',
  'provider.authentication_failed': 'Signing in at your institution did not succeed. Please try again.',
  'provider.not_allowed':
    'This shop may not check this kind of affiliation through the validation service. Please contact the shop.',
  'provider.denied':
    'Your affiliation could not be confirmed by your institution, or you declined to share it.',
  // ProviderError, by code.
  'provider.unavailable':
    'The affiliation service could not handle the validation just now. Please try again in a moment.',
  'provider.shop_problem':
    'The validation could not be started because of a problem on the shop side. Please contact the shop.',
  'provider.failed': 'Your affiliation could not be validated. Please try again.',
  'provider.return_shop_problem':
    'The validation could not be completed when you returned to the shop, because of a problem on the shop side. Please contact the shop.',
  'provider.return_failed':
    'The validation could not be completed when you returned to the shop. Please start the validation again.',
  // ValidationError.
  'validation.unknown_state': 'This validation link is no longer valid. Please start the validation again.',
  'validation.expired': 'The validation took too long. Please start it again.',
  'validation.replayed':
    'This validation link was already used, so your validation may already have succeeded. If it did not, please start the validation again.',
  'validation.unknown_hint':
    'The selected institution is not available. Please choose your institution again.',
  'validation.hints_loading': 'The list of institutions is still loading. Please try again in a moment.',
  'validation.incomplete': 'The validation answer was incomplete. Please start the validation again.',
  'validation.failed': 'Your affiliation could not be validated securely. Please start the validation again.',
  // StartRequestError.
  'start.again': 'Please start the validation again from the shop page.',
  'start.one_value': 'Please choose one value.',
  'start.not_offered':
    'This choice is not offered here. Please start the validation again from the shop page.',
  'start.affiliation': 'Please choose one of the offered affiliations.',
  'start.option': 'Please choose one of the offered options.',
  // The shop's stores, ledger and hint feed.
  'store.unavailable': 'The shop could not check your validation just now. Please try again in a moment.',
  'offer.unidentifiable':
    'Your institution did not share what this offer needs to recognise a returning shopper, so it cannot be applied.',
  'hints.refresh_failed':
    'The list of institutions could not be updated just now; the previous list is still used.',
  // The documentation-site client (scripts, not shoppers; translated all the same).
  'docs.request_failed': 'The documentation site could not complete the request.',
  'docs.sync_failed': 'The documentation could not be synchronised.',
};
