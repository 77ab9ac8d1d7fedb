// catalog of shopper texts: čeština (Czech), cs
import type { ShopperTextCatalog } from '../texts.js';

/** Vykání, as Czech e-shops write; «příslušnost» for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Ověření se nezdařilo',
  'page.failed.back': 'Zpět do obchodu',
  'page.failed.code': 'Kód chyby: {code}',
  'page.failed.restart': 'Vybrat instituci znovu',
  'page.not_started.title': 'Ověření nebylo zahájeno',
  'relay.title': 'Dokončování ověření',
  'relay.working': 'Dokončuje se ověření…',
  'relay.sending': 'Odesílá se výsledek ověření…',
  'relay.empty':
    'Na této stránce nebyl nalezen žádný výsledek ověření. Vraťte se prosím do obchodu a zahajte ověření znovu.',
  'relay.noscript': 'K dokončení ověření je potřeba JavaScript. Zapněte ho prosím a zahajte ověření znovu.',
  'error.unknown': 'Při ověřování vaší příslušnosti se něco pokazilo. Zkuste to prosím znovu.',
  'error.unreachable': 'Ověřovací služba je momentálně nedostupná. Zkuste to prosím za chvíli znovu.',
  'error.misconfigured': 'Tento obchod není správně nastaven. Obraťte se prosím na obchod.',
  'error.scope': 'Tento obchod požádal o druh ověření, který není možný. Obraťte se prosím na obchod.',
  'provider.unknown_institution':
    'Ověřovací služba nerozpoznala zvolenou instituci. Nebyla to vaše chyba: vyberte prosím svou instituci znovu.',
  'provider.no_affiliation':
    'Vaše instituce nepotvrdila pro účet, kterým jste se přihlásili, žádnou příslušnost. Zkontrolujte prosím, že jste použili svůj účet u této instituce, nebo se obraťte na její podporu.',
  'provider.affiliation_mismatch':
    'Vaše instituce nepotvrdila příslušnost, pro kterou je tato nabídka určena. Pokud obchod nabízí jinou (například zaměstnanec místo studenta), zvolte prosím tu.',
  'provider.consent_denied':
    'Obchod může vaši příslušnost ověřit jen s vaším souhlasem. Chcete-li nabídku získat, začněte znovu a souhlaste se sdílením své příslušnosti.',
  'provider.authentication_failed': 'Přihlášení u vaší instituce se nezdařilo. Zkuste to prosím znovu.',
  'provider.not_allowed':
    'Tento obchod nesmí prostřednictvím ověřovací služby ověřovat tento druh příslušnosti. Obraťte se prosím na obchod.',
  'provider.denied': 'Vaše instituce nemohla potvrdit vaši příslušnost, nebo jste ji odmítli sdílet.',
  'provider.unavailable': 'Ověřovací služba teď nemohla ověření zpracovat. Zkuste to prosím za chvíli znovu.',
  'provider.shop_problem':
    'Ověření nebylo možné zahájit kvůli problému na straně obchodu. Obraťte se prosím na obchod.',
  'provider.failed': 'Vaši příslušnost se nepodařilo ověřit. Zkuste to prosím znovu.',
  'provider.return_shop_problem':
    'Ověření se po vašem návratu do obchodu nepodařilo dokončit kvůli problému na straně obchodu. Obraťte se prosím na obchod.',
  'provider.return_failed':
    'Ověření se po vašem návratu do obchodu nepodařilo dokončit. Zahajte prosím ověření znovu.',
  'validation.unknown_state': 'Tento odkaz pro ověření už není platný. Zahajte prosím ověření znovu.',
  'validation.expired': 'Ověření trvalo příliš dlouho. Zahajte ho prosím znovu.',
  'validation.replayed':
    'Tento odkaz pro ověření už byl použit, takže vaše ověření možná už proběhlo úspěšně. Pokud ne, zahajte prosím ověření znovu.',
  'validation.unknown_hint': 'Vybraná instituce není k dispozici. Vyberte prosím svou instituci znovu.',
  'validation.hints_loading': 'Seznam institucí se ještě načítá. Zkuste to prosím za chvíli znovu.',
  'validation.incomplete': 'Odpověď ověření byla neúplná. Zahajte prosím ověření znovu.',
  'validation.failed': 'Vaši příslušnost se nepodařilo bezpečně ověřit. Zahajte prosím ověření znovu.',
  'start.again': 'Zahajte prosím ověření znovu ze stránky obchodu.',
  'start.one_value': 'Zvolte prosím jedinou hodnotu.',
  'start.not_offered': 'Tato volba zde není nabízena. Zahajte prosím ověření znovu ze stránky obchodu.',
  'start.affiliation': 'Zvolte prosím jednu z nabízených příslušností.',
  'start.option': 'Zvolte prosím jednu z nabízených možností.',
  'store.unavailable': 'Obchod teď nemohl vaše ověření zpracovat. Zkuste to prosím za chvíli znovu.',
  'offer.unidentifiable':
    'Vaše instituce nesdílela údaje, které tato nabídka potřebuje k rozpoznání vracejícího se zákazníka, proto ji nelze uplatnit.',
  'hints.refresh_failed':
    'Seznam institucí se teď nepodařilo aktualizovat; nadále se používá předchozí seznam.',
  'docs.request_failed': 'Web s dokumentací nemohl požadavek dokončit.',
  'docs.sync_failed': 'Dokumentaci se nepodařilo synchronizovat.',
};
