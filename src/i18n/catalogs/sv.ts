// catalog of shopper texts: svenska (Swedish), sv
import type { ShopperTextCatalog } from '../texts.js';

/** Du, as Swedish shops write; «lärosäte» as SWAMID names a higher-education institution («institution» is a department in Swedish). */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Verifieringen misslyckades',
  'page.failed.back': 'Tillbaka till butiken',
  'page.failed.code': 'Felkod: {code}',
  'page.failed.restart': 'Välj ditt lärosäte igen',
  'page.not_started.title': 'Verifieringen startades inte',
  'relay.title': 'Verifieringen slutförs',
  'relay.working': 'Verifieringen slutförs…',
  'relay.sending': 'Resultatet av verifieringen skickas…',
  'relay.empty':
    'Inget resultat av någon verifiering hittades på den här sidan. Gå tillbaka till butiken och starta verifieringen igen.',
  'relay.noscript':
    'JavaScript behövs för att slutföra verifieringen. Aktivera det och starta verifieringen igen.',
  'error.unknown': 'Något gick fel när din anknytning kontrollerades. Försök igen.',
  'error.unreachable': 'Verifieringstjänsten går inte att nå just nu. Försök igen om en stund.',
  'error.misconfigured': 'Den här butiken är inte korrekt inställd. Kontakta butiken.',
  'error.scope': 'Den här butiken begärde en typ av verifiering som inte är möjlig. Kontakta butiken.',
  'provider.unknown_institution':
    'Verifieringstjänsten kände inte igen det valda lärosätet. Det var inte ditt fel: välj ditt lärosäte igen.',
  'provider.no_affiliation':
    'Ditt lärosäte bekräftade ingen anknytning för kontot du loggade in med. Kontrollera att du använde ditt konto vid det här lärosätet, eller fråga dess support.',
  'provider.affiliation_mismatch':
    'Ditt lärosäte bekräftade inte den anknytning som erbjudandet gäller. Om butiken erbjuder en annan (till exempel anställd i stället för student), välj den.',
  'provider.consent_denied':
    'Butiken kan bara kontrollera din anknytning med ditt samtycke. Börja om och godkänn att din anknytning delas för att få erbjudandet.',
  'provider.authentication_failed': 'Inloggningen hos ditt lärosäte lyckades inte. Försök igen.',
  'provider.not_allowed':
    'Den här butiken får inte kontrollera den här typen av anknytning via verifieringstjänsten. Kontakta butiken.',
  'provider.denied': 'Ditt lärosäte kunde inte bekräfta din anknytning, eller så valde du att inte dela den.',
  'provider.unavailable':
    'Verifieringstjänsten kunde inte hantera verifieringen just nu. Försök igen om en stund.',
  'provider.shop_problem':
    'Verifieringen kunde inte startas på grund av ett problem hos butiken. Kontakta butiken.',
  'provider.failed': 'Din anknytning kunde inte verifieras. Försök igen.',
  'provider.return_shop_problem':
    'Verifieringen kunde inte slutföras när du kom tillbaka till butiken, på grund av ett problem hos butiken. Kontakta butiken.',
  'provider.return_failed':
    'Verifieringen kunde inte slutföras när du kom tillbaka till butiken. Starta verifieringen igen.',
  'validation.unknown_state': 'Den här verifieringslänken är inte längre giltig. Starta verifieringen igen.',
  'validation.expired': 'Verifieringen tog för lång tid. Starta den igen.',
  'validation.replayed':
    'Den här verifieringslänken har redan använts, så din verifiering kan redan ha lyckats. Om inte, starta verifieringen igen.',
  'validation.unknown_hint': 'Det valda lärosätet är inte tillgängligt. Välj ditt lärosäte igen.',
  'validation.hints_loading': 'Listan över lärosäten läses fortfarande in. Försök igen om en stund.',
  'validation.incomplete': 'Svaret från verifieringen var ofullständigt. Starta verifieringen igen.',
  'validation.failed': 'Din anknytning kunde inte verifieras på ett säkert sätt. Starta verifieringen igen.',
  'start.again': 'Starta verifieringen igen från butikens sida.',
  'start.one_value': 'Välj ett enda värde.',
  'start.not_offered': 'Det här valet erbjuds inte här. Starta verifieringen igen från butikens sida.',
  'start.affiliation': 'Välj en av de erbjudna anknytningarna.',
  'start.option': 'Välj ett av de erbjudna alternativen.',
  'store.unavailable': 'Butiken kunde inte hantera din verifiering just nu. Försök igen om en stund.',
  'offer.unidentifiable':
    'Ditt lärosäte delade inte det som erbjudandet behöver för att känna igen en återkommande kund, så det kan inte tillämpas.',
  'hints.refresh_failed':
    'Listan över lärosäten kunde inte uppdateras just nu; den tidigare listan används fortfarande.',
  'docs.request_failed': 'Dokumentationswebbplatsen kunde inte slutföra begäran.',
  'docs.sync_failed': 'Dokumentationen kunde inte synkroniseras.',
};
