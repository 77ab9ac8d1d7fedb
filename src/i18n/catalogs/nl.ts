// catalog of shopper texts: Nederlands (Dutch), nl
import type { ShopperTextCatalog } from '../texts.js';

/** Je-vorm, as Dutch shops write; «instelling» as SURFconext names an institution, «status» (student, medewerker) for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Verificatie mislukt',
  'page.failed.back': 'Terug naar de winkel',
  'page.failed.code': 'Foutcode: {code}',
  'page.failed.restart': 'Kies je instelling opnieuw',
  'page.not_started.title': 'Verificatie niet gestart',
  'relay.title': 'Verificatie afronden',
  'relay.working': 'De verificatie wordt afgerond…',
  'relay.sending': 'Het resultaat van de verificatie wordt verstuurd…',
  'relay.empty':
    'Er is op deze pagina geen verificatieresultaat gevonden. Ga terug naar de winkel en start de verificatie opnieuw.',
  'relay.noscript':
    'JavaScript is nodig om de verificatie af te ronden. Zet het aan en start de verificatie opnieuw.',
  'error.unknown': 'Er ging iets mis bij het controleren van je status. Probeer het opnieuw.',
  'error.unreachable': 'De verificatiedienst is op dit moment niet bereikbaar. Probeer het zo opnieuw.',
  'error.misconfigured': 'Deze winkel is niet goed ingesteld. Neem contact op met de winkel.',
  'error.scope':
    'Deze winkel vroeg om een soort verificatie die niet mogelijk is. Neem contact op met de winkel.',
  'provider.unknown_institution':
    'De verificatiedienst herkende de gekozen instelling niet. Dat ligt niet aan jou: kies je instelling opnieuw.',
  'provider.no_affiliation':
    'Je instelling heeft voor het account waarmee je bent ingelogd geen enkele status bevestigd. Controleer of je je account van deze instelling hebt gebruikt, of vraag het na bij de helpdesk van je instelling.',
  'provider.affiliation_mismatch':
    'Je instelling heeft de status waarvoor deze aanbieding geldt niet bevestigd. Biedt de winkel een andere aan (bijvoorbeeld medewerker in plaats van student), kies die dan.',
  'provider.consent_denied':
    'De winkel kan je status alleen met jouw toestemming controleren. Wil je de aanbieding, begin dan opnieuw en geef toestemming om je status te delen.',
  'provider.authentication_failed': 'Inloggen bij je instelling is niet gelukt. Probeer het opnieuw.',
  'provider.not_allowed':
    'Deze winkel mag dit soort status niet via de verificatiedienst controleren. Neem contact op met de winkel.',
  'provider.denied':
    'Je instelling kon je status niet bevestigen, of je hebt ervoor gekozen die niet te delen.',
  'provider.unavailable':
    'De verificatiedienst kon de verificatie op dit moment niet afhandelen. Probeer het zo opnieuw.',
  'provider.shop_problem':
    'De verificatie kon niet starten door een probleem bij de winkel. Neem contact op met de winkel.',
  'provider.failed': 'Je status kon niet worden gecontroleerd. Probeer het opnieuw.',
  'provider.return_shop_problem':
    'De verificatie kon niet worden afgerond toen je terugkwam bij de winkel, door een probleem bij de winkel. Neem contact op met de winkel.',
  'provider.return_failed':
    'De verificatie kon niet worden afgerond toen je terugkwam bij de winkel. Start de verificatie opnieuw.',
  'validation.unknown_state': 'Deze verificatielink is niet meer geldig. Start de verificatie opnieuw.',
  'validation.expired': 'De verificatie duurde te lang. Start hem opnieuw.',
  'validation.replayed':
    'Deze verificatielink is al gebruikt, dus misschien is je verificatie al gelukt. Zo niet, start de verificatie dan opnieuw.',
  'validation.unknown_hint': 'De gekozen instelling is niet beschikbaar. Kies je instelling opnieuw.',
  'validation.hints_loading': 'De lijst met instellingen wordt nog geladen. Probeer het zo opnieuw.',
  'validation.incomplete': 'Het antwoord van de verificatie was onvolledig. Start de verificatie opnieuw.',
  'validation.failed': 'Je status kon niet veilig worden gecontroleerd. Start de verificatie opnieuw.',
  'start.again': 'Start de verificatie opnieuw vanaf de pagina van de winkel.',
  'start.one_value': 'Kies één waarde.',
  'start.not_offered':
    'Deze keuze wordt hier niet aangeboden. Start de verificatie opnieuw vanaf de pagina van de winkel.',
  'start.affiliation': 'Kies een van de aangeboden statussen.',
  'start.option': 'Kies een van de aangeboden mogelijkheden.',
  'store.unavailable': 'De winkel kon je verificatie op dit moment niet afhandelen. Probeer het zo opnieuw.',
  'offer.unidentifiable':
    'Je instelling heeft niet gedeeld wat deze aanbieding nodig heeft om een terugkerende klant te herkennen, dus de aanbieding kan niet worden toegepast.',
  'hints.refresh_failed':
    'De lijst met instellingen kon op dit moment niet worden bijgewerkt; de vorige lijst wordt nog gebruikt.',
  'docs.request_failed': 'De documentatiesite kon het verzoek niet afhandelen.',
  'docs.sync_failed': 'De documentatie kon niet worden gesynchroniseerd.',
};
