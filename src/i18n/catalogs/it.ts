// catalog of shopper texts: italiano (Italian), it
import type { ShopperTextCatalog } from '../texts.js';

/** Dare del tu, as Italian online shops write; «appartenenza» for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Verifica non riuscita',
  'page.failed.back': 'Torna al negozio',
  'page.failed.code': 'Codice di errore: {code}',
  'page.failed.restart': 'Scegli di nuovo la tua istituzione',
  'page.not_started.title': 'Verifica non avviata',
  'relay.title': 'Completamento della verifica',
  'relay.working': 'Completamento della verifica…',
  'relay.sending': 'Invio del risultato della verifica…',
  'relay.empty':
    'In questa pagina non è stato trovato alcun risultato di verifica. Torna al negozio e avvia di nuovo la verifica.',
  'relay.noscript':
    'Per completare la verifica è necessario JavaScript. Attivalo e avvia di nuovo la verifica.',
  'error.unknown': 'Si è verificato un problema durante il controllo della tua appartenenza. Riprova.',
  'error.unreachable': 'Al momento il servizio di verifica non è raggiungibile. Riprova tra qualche istante.',
  'error.misconfigured': 'Questo negozio non è configurato correttamente. Contatta il negozio.',
  'error.scope': 'Questo negozio ha richiesto un tipo di verifica che non è possibile. Contatta il negozio.',
  'provider.unknown_institution':
    'Il servizio di verifica non ha riconosciuto l’istituzione scelta. Non è colpa tua: scegli di nuovo la tua istituzione.',
  'provider.no_affiliation':
    'La tua istituzione non ha confermato alcuna appartenenza per l’account con cui hai effettuato l’accesso. Controlla di aver usato il tuo account di questa istituzione oppure rivolgiti al suo servizio di assistenza.',
  'provider.affiliation_mismatch':
    'La tua istituzione non ha confermato l’appartenenza a cui è destinata questa offerta. Se il negozio ne offre un’altra (ad esempio personale invece di studente), scegli quella.',
  'provider.consent_denied':
    'Il negozio può verificare la tua appartenenza solo con il tuo consenso. Per ottenere l’offerta, ricomincia e accetta di condividere la tua appartenenza.',
  'provider.authentication_failed': 'L’accesso presso la tua istituzione non è riuscito. Riprova.',
  'provider.not_allowed':
    'Questo negozio non è autorizzato a verificare questo tipo di appartenenza tramite il servizio di verifica. Contatta il negozio.',
  'provider.denied':
    'La tua istituzione non ha potuto confermare la tua appartenenza, oppure hai scelto di non condividerla.',
  'provider.unavailable':
    'Al momento il servizio di verifica non è riuscito a gestire la verifica. Riprova tra qualche istante.',
  'provider.shop_problem':
    'Non è stato possibile avviare la verifica a causa di un problema del negozio. Contatta il negozio.',
  'provider.failed': 'Non è stato possibile verificare la tua appartenenza. Riprova.',
  'provider.return_shop_problem':
    'Non è stato possibile completare la verifica al tuo ritorno nel negozio, a causa di un problema del negozio. Contatta il negozio.',
  'provider.return_failed':
    'Non è stato possibile completare la verifica al tuo ritorno nel negozio. Avvia di nuovo la verifica.',
  'validation.unknown_state': 'Questo link di verifica non è più valido. Avvia di nuovo la verifica.',
  'validation.expired': 'La verifica ha richiesto troppo tempo. Avviala di nuovo.',
  'validation.replayed':
    'Questo link di verifica è già stato usato, quindi la tua verifica potrebbe essere già riuscita. In caso contrario, avvia di nuovo la verifica.',
  'validation.unknown_hint':
    'L’istituzione selezionata non è disponibile. Scegli di nuovo la tua istituzione.',
  'validation.hints_loading':
    'L’elenco delle istituzioni è ancora in caricamento. Riprova tra qualche istante.',
  'validation.incomplete': 'La risposta della verifica era incompleta. Avvia di nuovo la verifica.',
  'validation.failed':
    'Non è stato possibile verificare in modo sicuro la tua appartenenza. Avvia di nuovo la verifica.',
  'start.again': 'Avvia di nuovo la verifica dalla pagina del negozio.',
  'start.one_value': 'Scegli un solo valore.',
  'start.not_offered':
    'Questa scelta non è disponibile qui. Avvia di nuovo la verifica dalla pagina del negozio.',
  'start.affiliation': 'Scegli una delle appartenenze proposte.',
  'start.option': 'Scegli una delle opzioni proposte.',
  'store.unavailable':
    'Al momento il negozio non è riuscito a gestire la tua verifica. Riprova tra qualche istante.',
  'offer.unidentifiable':
    'La tua istituzione non ha condiviso ciò che serve a questa offerta per riconoscere un cliente che ritorna, quindi non può essere applicata.',
  'hints.refresh_failed':
    'Al momento non è stato possibile aggiornare l’elenco delle istituzioni; si continua a usare l’elenco precedente.',
  'docs.request_failed': 'Il sito della documentazione non ha potuto completare la richiesta.',
  'docs.sync_failed': 'Non è stato possibile sincronizzare la documentazione.',
};
