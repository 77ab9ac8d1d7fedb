// catalog of shopper texts: dansk (Danish), da
import type { ShopperTextCatalog } from '../texts.js';

/** Du, as Danish shops write; «tilknytning» for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Verificeringen mislykkedes',
  'page.failed.back': 'Tilbage til butikken',
  'page.failed.code': 'Fejlkode: {code}',
  'page.failed.restart': 'Vælg din institution igen',
  'page.not_started.title': 'Verificeringen blev ikke startet',
  'relay.title': 'Verificeringen afsluttes',
  'relay.working': 'Verificeringen afsluttes…',
  'relay.sending': 'Resultatet af verificeringen sendes…',
  'relay.empty':
    'Der blev ikke fundet noget resultat af en verificering på denne side. Gå tilbage til butikken, og start verificeringen igen.',
  'relay.noscript':
    'Der kræves JavaScript for at afslutte verificeringen. Slå det til, og start verificeringen igen.',
  'error.unknown': 'Noget gik galt, da din tilknytning blev kontrolleret. Prøv igen.',
  'error.unreachable': 'Verificeringstjenesten kan ikke kontaktes lige nu. Prøv igen om et øjeblik.',
  'error.misconfigured': 'Denne butik er ikke sat korrekt op. Kontakt butikken.',
  'error.scope': 'Denne butik har bedt om en slags verificering, som ikke er mulig. Kontakt butikken.',
  'provider.unknown_institution':
    'Verificeringstjenesten genkendte ikke den valgte institution. Det var ikke din fejl: Vælg din institution igen.',
  'provider.no_affiliation':
    'Din institution har ikke bekræftet nogen tilknytning for den konto, du loggede ind med. Kontrollér, at du brugte din konto hos denne institution, eller spørg institutionens support.',
  'provider.affiliation_mismatch':
    'Din institution har ikke bekræftet den tilknytning, som dette tilbud gælder for. Hvis butikken tilbyder en anden (for eksempel ansat i stedet for studerende), så vælg den.',
  'provider.consent_denied':
    'Butikken kan kun kontrollere din tilknytning med dit samtykke. Start forfra, og accepter at dele din tilknytning for at få tilbuddet.',
  'provider.authentication_failed': 'Login hos din institution lykkedes ikke. Prøv igen.',
  'provider.not_allowed':
    'Denne butik må ikke kontrollere denne slags tilknytning via verificeringstjenesten. Kontakt butikken.',
  'provider.denied': 'Din institution kunne ikke bekræfte din tilknytning, eller du valgte ikke at dele den.',
  'provider.unavailable':
    'Verificeringstjenesten kunne ikke gennemføre verificeringen lige nu. Prøv igen om et øjeblik.',
  'provider.shop_problem':
    'Verificeringen kunne ikke startes på grund af et problem hos butikken. Kontakt butikken.',
  'provider.failed': 'Din tilknytning kunne ikke verificeres. Prøv igen.',
  'provider.return_shop_problem':
    'Verificeringen kunne ikke afsluttes, da du vendte tilbage til butikken, på grund af et problem hos butikken. Kontakt butikken.',
  'provider.return_failed':
    'Verificeringen kunne ikke afsluttes, da du vendte tilbage til butikken. Start verificeringen igen.',
  'validation.unknown_state': 'Dette verificeringslink er ikke længere gyldigt. Start verificeringen igen.',
  'validation.expired': 'Verificeringen tog for lang tid. Start den igen.',
  'validation.replayed':
    'Dette verificeringslink er allerede brugt, så din verificering er måske allerede lykkedes. Hvis ikke, så start verificeringen igen.',
  'validation.unknown_hint': 'Den valgte institution er ikke tilgængelig. Vælg din institution igen.',
  'validation.hints_loading': 'Listen over institutioner indlæses stadig. Prøv igen om et øjeblik.',
  'validation.incomplete': 'Svaret fra verificeringen var ufuldstændigt. Start verificeringen igen.',
  'validation.failed': 'Din tilknytning kunne ikke verificeres sikkert. Start verificeringen igen.',
  'start.again': 'Start verificeringen igen fra butikkens side.',
  'start.one_value': 'Vælg én værdi.',
  'start.not_offered': 'Dette valg tilbydes ikke her. Start verificeringen igen fra butikkens side.',
  'start.affiliation': 'Vælg en af de tilbudte tilknytninger.',
  'start.option': 'Vælg en af de tilbudte muligheder.',
  'store.unavailable': 'Butikken kunne ikke behandle din verificering lige nu. Prøv igen om et øjeblik.',
  'offer.unidentifiable':
    'Din institution har ikke delt det, som dette tilbud skal bruge for at genkende en tilbagevendende kunde, så tilbuddet kan ikke anvendes.',
  'hints.refresh_failed':
    'Listen over institutioner kunne ikke opdateres lige nu; den tidligere liste bruges stadig.',
  'docs.request_failed': 'Dokumentationssiden kunne ikke gennemføre forespørgslen.',
  'docs.sync_failed': 'Dokumentationen kunne ikke synkroniseres.',
};
