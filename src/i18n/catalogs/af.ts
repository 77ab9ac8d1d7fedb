// catalog of shopper texts: Afrikaans, af
import type { ShopperTextCatalog } from '../texts.js';

/** Formal u, as Afrikaans services write to customers; «instelling» for the institution, «verbintenis» for the affiliation; the double negative (nie … nie) throughout. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Verifikasie het misluk',
  'page.failed.back': 'Terug na die winkel',
  'page.failed.code': 'Foutkode: {code}',
  'page.failed.restart': 'Kies u instelling weer',
  'page.not_started.title': 'Verifikasie nie begin nie',
  'relay.title': 'Verifikasie word voltooi',
  'relay.working': 'Die verifikasie word voltooi…',
  'relay.sending': 'Die resultaat van die verifikasie word gestuur…',
  'relay.empty':
    'Geen verifikasieresultaat is op hierdie bladsy gevind nie. Gaan asseblief terug na die winkel en begin die verifikasie weer.',
  'relay.noscript':
    'JavaScript is nodig om die verifikasie te voltooi. Skakel dit asseblief aan en begin die verifikasie weer.',
  'error.unknown': 'Iets het skeefgeloop terwyl u verbintenis nagegaan is. Probeer asseblief weer.',
  'error.unreachable':
    'Die verifikasiediens kan nie nou bereik word nie. Probeer asseblief oor ’n oomblik weer.',
  'error.misconfigured': 'Hierdie winkel is nie reg opgestel nie. Kontak asseblief die winkel.',
  'error.scope':
    'Hierdie winkel het ’n soort verifikasie aangevra wat nie moontlik is nie. Kontak asseblief die winkel.',
  'provider.unknown_institution':
    'Die verifikasiediens het die gekose instelling nie herken nie. Dit was nie u skuld nie: kies asseblief u instelling weer.',
  'provider.no_affiliation':
    'U instelling het geen verbintenis bevestig vir die rekening waarmee u aangemeld het nie. Maak asseblief seker dat u u rekening by hierdie instelling gebruik het, of vra die instelling se hulplyn.',
  'provider.affiliation_mismatch':
    'U instelling het nie die verbintenis bevestig waarvoor hierdie aanbod bedoel is nie. As die winkel ’n ander een aanbied (byvoorbeeld personeel in plaas van student), kies asseblief daardie een.',
  'provider.consent_denied':
    'Die winkel kan u verbintenis net met u toestemming nagaan. Om die aanbod te kry, begin weer en stem in om u verbintenis te deel.',
  'provider.authentication_failed':
    'Aanmelding by u instelling was nie suksesvol nie. Probeer asseblief weer.',
  'provider.not_allowed':
    'Hierdie winkel mag nie hierdie soort verbintenis deur die verifikasiediens nagaan nie. Kontak asseblief die winkel.',
  'provider.denied':
    'U instelling kon nie u verbintenis bevestig nie, of u het gekies om dit nie te deel nie.',
  'provider.unavailable':
    'Die verifikasiediens kon nie die verifikasie nou hanteer nie. Probeer asseblief oor ’n oomblik weer.',
  'provider.shop_problem':
    'Die verifikasie kon nie begin word nie weens ’n probleem by die winkel. Kontak asseblief die winkel.',
  'provider.failed': 'U verbintenis kon nie geverifieer word nie. Probeer asseblief weer.',
  'provider.return_shop_problem':
    'Die verifikasie kon nie voltooi word toe u na die winkel teruggekeer het nie, weens ’n probleem by die winkel. Kontak asseblief die winkel.',
  'provider.return_failed':
    'Die verifikasie kon nie voltooi word toe u na die winkel teruggekeer het nie. Begin asseblief die verifikasie weer.',
  'validation.unknown_state':
    'Hierdie verifikasieskakel is nie meer geldig nie. Begin asseblief die verifikasie weer.',
  'validation.expired': 'Die verifikasie het te lank geneem. Begin dit asseblief weer.',
  'validation.replayed':
    'Hierdie verifikasieskakel is reeds gebruik, so u verifikasie het dalk reeds geslaag. Indien nie, begin asseblief die verifikasie weer.',
  'validation.unknown_hint': 'Die gekose instelling is nie beskikbaar nie. Kies asseblief u instelling weer.',
  'validation.hints_loading':
    'Die lys van instellings word nog gelaai. Probeer asseblief oor ’n oomblik weer.',
  'validation.incomplete':
    'Die antwoord van die verifikasie was onvolledig. Begin asseblief die verifikasie weer.',
  'validation.failed':
    'U verbintenis kon nie veilig geverifieer word nie. Begin asseblief die verifikasie weer.',
  'start.again': 'Begin asseblief die verifikasie weer vanaf die winkel se bladsy.',
  'start.one_value': 'Kies asseblief een waarde.',
  'start.not_offered':
    'Hierdie keuse word nie hier aangebied nie. Begin asseblief die verifikasie weer vanaf die winkel se bladsy.',
  'start.affiliation': 'Kies asseblief een van die verbintenisse wat aangebied word.',
  'start.option': 'Kies asseblief een van die opsies wat aangebied word.',
  'store.unavailable':
    'Die winkel kon nie u verifikasie nou verwerk nie. Probeer asseblief oor ’n oomblik weer.',
  'offer.unidentifiable':
    'U instelling het nie gedeel wat hierdie aanbod nodig het om ’n terugkerende klant te herken nie, daarom kan dit nie toegepas word nie.',
  'hints.refresh_failed':
    'Die lys van instellings kon nie nou bygewerk word nie; die vorige lys word steeds gebruik.',
  'docs.request_failed': 'Die dokumentasiewerf kon nie die versoek voltooi nie.',
  'docs.sync_failed': 'Die dokumentasie kon nie gesinchroniseer word nie.',
};
