// catalog of shopper texts: magyar (Hungarian), hu
import type { ShopperTextCatalog } from '../texts.js';

/** Magázás (Ön), as Hungarian webshops write to customers; «jogviszony» (hallgatói, munkavállalói) for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Sikertelen ellenőrzés',
  'page.failed.back': 'Vissza a webáruházba',
  'page.failed.code': 'Hibakód: {code}',
  'page.failed.restart': 'Intézmény újbóli kiválasztása',
  'page.not_started.title': 'Az ellenőrzés nem indult el',
  'relay.title': 'Az ellenőrzés befejezése',
  'relay.working': 'Az ellenőrzés befejezése folyamatban…',
  'relay.sending': 'Az ellenőrzés eredményének elküldése…',
  'relay.empty':
    'Ezen az oldalon nem található ellenőrzési eredmény. Kérjük, térjen vissza a webáruházba, és indítsa újra az ellenőrzést.',
  'relay.noscript':
    'Az ellenőrzés befejezéséhez JavaScript szükséges. Kérjük, engedélyezze, és indítsa újra az ellenőrzést.',
  'error.unknown': 'Hiba történt a jogviszonya ellenőrzése közben. Kérjük, próbálja újra.',
  'error.unreachable':
    'Az ellenőrző szolgáltatás jelenleg nem érhető el. Kérjük, próbálja újra néhány pillanat múlva.',
  'error.misconfigured': 'Ez a webáruház nincs megfelelően beállítva. Kérjük, forduljon a webáruházhoz.',
  'error.scope':
    'Ez a webáruház olyan ellenőrzést kért, amely nem lehetséges. Kérjük, forduljon a webáruházhoz.',
  'provider.unknown_institution':
    'Az ellenőrző szolgáltatás nem ismerte fel a kiválasztott intézményt. Nem az Ön hibája: kérjük, válassza ki újra az intézményét.',
  'provider.no_affiliation':
    'Az intézménye semmilyen jogviszonyt nem igazolt ahhoz a fiókhoz, amellyel bejelentkezett. Kérjük, ellenőrizze, hogy ennek az intézménynek a fiókját használta-e, vagy forduljon az intézmény ügyfélszolgálatához.',
  'provider.affiliation_mismatch':
    'Az intézménye nem igazolta azt a jogviszonyt, amelyre ez az ajánlat szól. Ha a webáruház másikat is kínál (például munkatársit hallgatói helyett), kérjük, azt válassza.',
  'provider.consent_denied':
    'A webáruház csak az Ön hozzájárulásával ellenőrizheti a jogviszonyát. Az ajánlathoz kezdje újra, és járuljon hozzá a jogviszonya megosztásához.',
  'provider.authentication_failed': 'Nem sikerült bejelentkezni az intézményénél. Kérjük, próbálja újra.',
  'provider.not_allowed':
    'Ez a webáruház nem ellenőrizheti ezt a fajta jogviszonyt az ellenőrző szolgáltatáson keresztül. Kérjük, forduljon a webáruházhoz.',
  'provider.denied':
    'Az intézménye nem tudta igazolni a jogviszonyát, vagy Ön úgy döntött, hogy nem osztja meg.',
  'provider.unavailable':
    'Az ellenőrző szolgáltatás jelenleg nem tudta elvégezni az ellenőrzést. Kérjük, próbálja újra néhány pillanat múlva.',
  'provider.shop_problem':
    'Az ellenőrzést a webáruház oldalán fellépő hiba miatt nem lehetett elindítani. Kérjük, forduljon a webáruházhoz.',
  'provider.failed': 'Nem sikerült ellenőrizni a jogviszonyát. Kérjük, próbálja újra.',
  'provider.return_shop_problem':
    'Az ellenőrzést a webáruházba való visszatérésekor a webáruház oldalán fellépő hiba miatt nem lehetett befejezni. Kérjük, forduljon a webáruházhoz.',
  'provider.return_failed':
    'Az ellenőrzést a webáruházba való visszatérésekor nem lehetett befejezni. Kérjük, indítsa újra az ellenőrzést.',
  'validation.unknown_state':
    'Ez az ellenőrzési hivatkozás már nem érvényes. Kérjük, indítsa újra az ellenőrzést.',
  'validation.expired': 'Az ellenőrzés túl sokáig tartott. Kérjük, indítsa újra.',
  'validation.replayed':
    'Ezt az ellenőrzési hivatkozást már felhasználták, így lehet, hogy az ellenőrzése már sikerült. Ha nem, kérjük, indítsa újra az ellenőrzést.',
  'validation.unknown_hint':
    'A kiválasztott intézmény nem érhető el. Kérjük, válassza ki újra az intézményét.',
  'validation.hints_loading':
    'Az intézmények listája még töltődik. Kérjük, próbálja újra néhány pillanat múlva.',
  'validation.incomplete': 'Az ellenőrzés válasza hiányos volt. Kérjük, indítsa újra az ellenőrzést.',
  'validation.failed':
    'Nem sikerült biztonságosan ellenőrizni a jogviszonyát. Kérjük, indítsa újra az ellenőrzést.',
  'start.again': 'Kérjük, indítsa újra az ellenőrzést a webáruház oldaláról.',
  'start.one_value': 'Kérjük, egyetlen értéket válasszon.',
  'start.not_offered':
    'Ez a lehetőség itt nem választható. Kérjük, indítsa újra az ellenőrzést a webáruház oldaláról.',
  'start.affiliation': 'Kérjük, válasszon a felkínált jogviszonyok közül.',
  'start.option': 'Kérjük, válasszon a felkínált lehetőségek közül.',
  'store.unavailable':
    'A webáruház jelenleg nem tudta feldolgozni az ellenőrzését. Kérjük, próbálja újra néhány pillanat múlva.',
  'offer.unidentifiable':
    'Az intézménye nem osztotta meg azt, amire ennek az ajánlatnak szüksége van a visszatérő vásárlók felismeréséhez, ezért az ajánlat nem vehető igénybe.',
  'hints.refresh_failed':
    'Az intézmények listáját most nem sikerült frissíteni; továbbra is a korábbi lista van használatban.',
  'docs.request_failed': 'A dokumentációs webhely nem tudta teljesíteni a kérést.',
  'docs.sync_failed': 'Nem sikerült szinkronizálni a dokumentációt.',
};
