// catalog of shopper texts: eesti (Estonian), et
import type { ShopperTextCatalog } from '../texts.js';

/** Teie (formal plural), as Estonian services write; «asutus» for the institution, «kuuluvus» for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Kontroll ebaõnnestus',
  'page.failed.back': 'Tagasi poodi',
  'page.failed.code': 'Veakood: {code}',
  'page.failed.restart': 'Valige oma asutus uuesti',
  'page.not_started.title': 'Kontrolli ei alustatud',
  'relay.title': 'Kontrolli lõpetamine',
  'relay.working': 'Kontrolli lõpetatakse…',
  'relay.sending': 'Kontrolli tulemust saadetakse…',
  'relay.empty':
    'Sellelt lehelt ei leitud ühtegi kontrolli tulemust. Minge tagasi poodi ja alustage kontrolli uuesti.',
  'relay.noscript':
    'Kontrolli lõpetamiseks on vaja JavaScripti. Lülitage see sisse ja alustage kontrolli uuesti.',
  'error.unknown': 'Teie kuuluvuse kontrollimisel läks midagi valesti. Palun proovige uuesti.',
  'error.unreachable': 'Kontrolliteenusega ei saa praegu ühendust. Palun proovige mõne hetke pärast uuesti.',
  'error.misconfigured': 'See pood ei ole õigesti seadistatud. Palun võtke poega ühendust.',
  'error.scope': 'See pood küsis kontrolli, mis ei ole võimalik. Palun võtke poega ühendust.',
  'provider.unknown_institution':
    'Kontrolliteenus ei tundnud valitud asutust ära. See ei olnud teie viga: palun valige oma asutus uuesti.',
  'provider.no_affiliation':
    'Teie asutus ei kinnitanud konto jaoks, millega sisse logisite, ühtegi kuuluvust. Palun kontrollige, et kasutasite selle asutuse kontot, või pöörduge asutuse kasutajatoe poole.',
  'provider.affiliation_mismatch':
    'Teie asutus ei kinnitanud kuuluvust, millele see pakkumine on mõeldud. Kui pood pakub muud (näiteks töötaja üliõpilase asemel), valige see.',
  'provider.consent_denied':
    'Pood saab teie kuuluvust kontrollida ainult teie nõusolekul. Pakkumise saamiseks alustage uuesti ja nõustuge oma kuuluvust jagama.',
  'provider.authentication_failed': 'Teie asutuses sisselogimine ei õnnestunud. Palun proovige uuesti.',
  'provider.not_allowed':
    'See pood ei tohi kontrolliteenuse kaudu seda liiki kuuluvust kontrollida. Palun võtke poega ühendust.',
  'provider.denied': 'Teie asutus ei saanud teie kuuluvust kinnitada või otsustasite seda mitte jagada.',
  'provider.unavailable':
    'Kontrolliteenus ei saanud kontrolli praegu läbi viia. Palun proovige mõne hetke pärast uuesti.',
  'provider.shop_problem':
    'Kontrolli ei saanud alustada poepoolse probleemi tõttu. Palun võtke poega ühendust.',
  'provider.failed': 'Teie kuuluvust ei õnnestunud kontrollida. Palun proovige uuesti.',
  'provider.return_shop_problem':
    'Kontrolli ei saanud poodi naasmisel lõpetada poepoolse probleemi tõttu. Palun võtke poega ühendust.',
  'provider.return_failed': 'Kontrolli ei saanud poodi naasmisel lõpetada. Palun alustage kontrolli uuesti.',
  'validation.unknown_state': 'See kontrollilink ei kehti enam. Palun alustage kontrolli uuesti.',
  'validation.expired': 'Kontroll kestis liiga kaua. Palun alustage seda uuesti.',
  'validation.replayed':
    'Seda kontrollilinki on juba kasutatud, nii et teie kontroll võib olla juba õnnestunud. Kui ei, alustage kontrolli uuesti.',
  'validation.unknown_hint': 'Valitud asutus ei ole saadaval. Palun valige oma asutus uuesti.',
  'validation.hints_loading': 'Asutuste loendit alles laaditakse. Palun proovige mõne hetke pärast uuesti.',
  'validation.incomplete': 'Kontrolli vastus oli puudulik. Palun alustage kontrolli uuesti.',
  'validation.failed':
    'Teie kuuluvust ei õnnestunud turvaliselt kontrollida. Palun alustage kontrolli uuesti.',
  'start.again': 'Palun alustage kontrolli uuesti poe lehelt.',
  'start.one_value': 'Palun valige üks väärtus.',
  'start.not_offered': 'Seda valikut siin ei pakuta. Palun alustage kontrolli uuesti poe lehelt.',
  'start.affiliation': 'Palun valige üks pakutud kuuluvustest.',
  'start.option': 'Palun valige üks pakutud valikutest.',
  'store.unavailable':
    'Pood ei saanud teie kontrolli praegu töödelda. Palun proovige mõne hetke pärast uuesti.',
  'offer.unidentifiable':
    'Teie asutus ei jaganud seda, mida pakkumine vajab naasva kliendi äratundmiseks, seega ei saa pakkumist rakendada.',
  'hints.refresh_failed':
    'Asutuste loendit ei õnnestunud praegu uuendada; kasutusel on endiselt eelmine loend.',
  'docs.request_failed': 'Dokumentatsiooni sait ei saanud päringut lõpule viia.',
  'docs.sync_failed': 'Dokumentatsiooni ei õnnestunud sünkroonida.',
};
