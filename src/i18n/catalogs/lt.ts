// catalog of shopper texts: lietuvių (Lithuanian), lt
import type { ShopperTextCatalog } from '../texts.js';

/** Jūs (formal plural), as Lithuanian services write; «institucija» as LITNET names one, «statusas» for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Patikrinti nepavyko',
  'page.failed.back': 'Grįžti į parduotuvę',
  'page.failed.code': 'Klaidos kodas: {code}',
  'page.failed.restart': 'Pasirinkti instituciją iš naujo',
  'page.not_started.title': 'Patikrinimas nepradėtas',
  'relay.title': 'Patikrinimas baigiamas',
  'relay.working': 'Patikrinimas baigiamas…',
  'relay.sending': 'Siunčiamas patikrinimo rezultatas…',
  'relay.empty':
    'Šiame puslapyje nerasta jokio patikrinimo rezultato. Grįžkite į parduotuvę ir pradėkite patikrinimą iš naujo.',
  'relay.noscript': 'Patikrinimui užbaigti reikia JavaScript. Įjunkite jį ir pradėkite patikrinimą iš naujo.',
  'error.unknown': 'Tikrinant jūsų statusą įvyko klaida. Bandykite dar kartą.',
  'error.unreachable':
    'Šiuo metu nepavyksta susisiekti su patikrinimo paslauga. Po akimirkos bandykite dar kartą.',
  'error.misconfigured': 'Ši parduotuvė netinkamai sukonfigūruota. Susisiekite su parduotuve.',
  'error.scope': 'Ši parduotuvė paprašė patikrinimo, kurio atlikti neįmanoma. Susisiekite su parduotuve.',
  'provider.unknown_institution':
    'Patikrinimo paslauga neatpažino pasirinktos institucijos. Tai ne jūsų kaltė: pasirinkite savo instituciją iš naujo.',
  'provider.no_affiliation':
    'Jūsų institucija nepatvirtino jokio statuso paskyrai, kuria prisijungėte. Patikrinkite, ar naudojote šios institucijos paskyrą, arba kreipkitės į jos pagalbos tarnybą.',
  'provider.affiliation_mismatch':
    'Jūsų institucija nepatvirtino statuso, kuriam skirtas šis pasiūlymas. Jei parduotuvė siūlo kitą (pavyzdžiui, darbuotojo vietoj studento), pasirinkite jį.',
  'provider.consent_denied':
    'Parduotuvė gali patikrinti jūsų statusą tik gavusi jūsų sutikimą. Norėdami gauti pasiūlymą, pradėkite iš naujo ir sutikite pasidalyti savo statusu.',
  'provider.authentication_failed': 'Prisijungti prie jūsų institucijos nepavyko. Bandykite dar kartą.',
  'provider.not_allowed':
    'Ši parduotuvė negali per patikrinimo paslaugą tikrinti tokio statuso. Susisiekite su parduotuve.',
  'provider.denied': 'Jūsų institucija negalėjo patvirtinti jūsų statuso arba nusprendėte juo nesidalyti.',
  'provider.unavailable':
    'Patikrinimo paslauga šiuo metu negalėjo atlikti patikrinimo. Po akimirkos bandykite dar kartą.',
  'provider.shop_problem':
    'Patikrinimo nepavyko pradėti dėl parduotuvės problemos. Susisiekite su parduotuve.',
  'provider.failed': 'Jūsų statuso patikrinti nepavyko. Bandykite dar kartą.',
  'provider.return_shop_problem':
    'Grįžus į parduotuvę patikrinimo nepavyko užbaigti dėl parduotuvės problemos. Susisiekite su parduotuve.',
  'provider.return_failed':
    'Grįžus į parduotuvę patikrinimo nepavyko užbaigti. Pradėkite patikrinimą iš naujo.',
  'validation.unknown_state': 'Ši patikrinimo nuoroda nebegalioja. Pradėkite patikrinimą iš naujo.',
  'validation.expired': 'Patikrinimas užtruko per ilgai. Pradėkite jį iš naujo.',
  'validation.replayed':
    'Ši patikrinimo nuoroda jau panaudota, todėl jūsų patikrinimas galbūt jau pavyko. Jei ne, pradėkite patikrinimą iš naujo.',
  'validation.unknown_hint': 'Pasirinkta institucija nepasiekiama. Pasirinkite savo instituciją iš naujo.',
  'validation.hints_loading': 'Institucijų sąrašas dar įkeliamas. Po akimirkos bandykite dar kartą.',
  'validation.incomplete': 'Patikrinimo atsakymas buvo neišsamus. Pradėkite patikrinimą iš naujo.',
  'validation.failed': 'Jūsų statuso nepavyko saugiai patikrinti. Pradėkite patikrinimą iš naujo.',
  'start.again': 'Pradėkite patikrinimą iš naujo parduotuvės puslapyje.',
  'start.one_value': 'Pasirinkite vieną reikšmę.',
  'start.not_offered':
    'Šis pasirinkimas čia nesiūlomas. Pradėkite patikrinimą iš naujo parduotuvės puslapyje.',
  'start.affiliation': 'Pasirinkite vieną iš siūlomų statusų.',
  'start.option': 'Pasirinkite vieną iš siūlomų galimybių.',
  'store.unavailable':
    'Parduotuvė šiuo metu negalėjo apdoroti jūsų patikrinimo. Po akimirkos bandykite dar kartą.',
  'offer.unidentifiable':
    'Jūsų institucija nepateikė to, ko šiam pasiūlymui reikia sugrįžtančiam pirkėjui atpažinti, todėl jo pritaikyti negalima.',
  'hints.refresh_failed':
    'Šiuo metu nepavyko atnaujinti institucijų sąrašo; toliau naudojamas ankstesnis sąrašas.',
  'docs.request_failed': 'Dokumentacijos svetainė negalėjo įvykdyti užklausos.',
  'docs.sync_failed': 'Dokumentacijos sinchronizuoti nepavyko.',
};
