// catalog of shopper texts: Deutsch (German), de
import type { ShopperTextCatalog } from '../texts.js';

/** Formal address (Sie), as German shops write; "Einrichtung" as the German federations (DFN-AAI) name an institution. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Überprüfung fehlgeschlagen',
  'page.failed.back': 'Zurück zum Shop',
  'page.failed.code': 'Fehlercode: {code}',
  'page.failed.restart': 'Einrichtung erneut wählen',
  'page.not_started.title': 'Überprüfung nicht gestartet',
  'relay.title': 'Überprüfung wird abgeschlossen',
  'relay.working': 'Die Überprüfung wird abgeschlossen…',
  'relay.sending': 'Das Ergebnis der Überprüfung wird übermittelt…',
  'relay.empty':
    'Auf dieser Seite wurde kein Ergebnis einer Überprüfung gefunden. Bitte kehren Sie zum Shop zurück und starten Sie die Überprüfung erneut.',
  'relay.noscript':
    'Zum Abschließen der Überprüfung wird JavaScript benötigt. Bitte aktivieren Sie es und starten Sie die Überprüfung erneut.',
  'error.unknown':
    'Bei der Überprüfung Ihrer Zugehörigkeit ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.',
  'error.unreachable':
    'Der Überprüfungsdienst ist gerade nicht erreichbar. Bitte versuchen Sie es in Kürze erneut.',
  'error.misconfigured': 'Dieser Shop ist nicht richtig eingerichtet. Bitte wenden Sie sich an den Shop.',
  'error.scope':
    'Dieser Shop hat eine Überprüfung angefragt, die nicht möglich ist. Bitte wenden Sie sich an den Shop.',
  'provider.unknown_institution':
    'Der Überprüfungsdienst hat die gewählte Einrichtung nicht erkannt. Das lag nicht an Ihnen: Bitte wählen Sie Ihre Einrichtung erneut.',
  'provider.no_affiliation':
    'Ihre Einrichtung hat für das Konto, mit dem Sie sich angemeldet haben, keine Zugehörigkeit bestätigt. Bitte prüfen Sie, ob Sie Ihr Konto dieser Einrichtung verwendet haben, oder wenden Sie sich an deren Support.',
  'provider.affiliation_mismatch':
    'Ihre Einrichtung hat die Zugehörigkeit, für die dieses Angebot gilt, nicht bestätigt. Wenn der Shop eine andere anbietet (zum Beispiel Beschäftigte statt Studierende), wählen Sie bitte diese.',
  'provider.consent_denied':
    'Der Shop kann Ihre Zugehörigkeit nur mit Ihrer Einwilligung prüfen. Um das Angebot zu erhalten, starten Sie erneut und stimmen Sie der Weitergabe Ihrer Zugehörigkeit zu.',
  'provider.authentication_failed':
    'Die Anmeldung bei Ihrer Einrichtung ist nicht gelungen. Bitte versuchen Sie es erneut.',
  'provider.not_allowed':
    'Dieser Shop darf diese Art von Zugehörigkeit nicht über den Überprüfungsdienst prüfen. Bitte wenden Sie sich an den Shop.',
  'provider.denied':
    'Ihre Einrichtung konnte Ihre Zugehörigkeit nicht bestätigen, oder Sie haben die Weitergabe abgelehnt.',
  'provider.unavailable':
    'Der Überprüfungsdienst konnte die Überprüfung gerade nicht durchführen. Bitte versuchen Sie es in Kürze erneut.',
  'provider.shop_problem':
    'Die Überprüfung konnte wegen eines Problems beim Shop nicht gestartet werden. Bitte wenden Sie sich an den Shop.',
  'provider.failed': 'Ihre Zugehörigkeit konnte nicht überprüft werden. Bitte versuchen Sie es erneut.',
  'provider.return_shop_problem':
    'Die Überprüfung konnte bei Ihrer Rückkehr zum Shop wegen eines Problems beim Shop nicht abgeschlossen werden. Bitte wenden Sie sich an den Shop.',
  'provider.return_failed':
    'Die Überprüfung konnte bei Ihrer Rückkehr zum Shop nicht abgeschlossen werden. Bitte starten Sie die Überprüfung erneut.',
  'validation.unknown_state':
    'Dieser Überprüfungslink ist nicht mehr gültig. Bitte starten Sie die Überprüfung erneut.',
  'validation.expired': 'Die Überprüfung hat zu lange gedauert. Bitte starten Sie sie erneut.',
  'validation.replayed':
    'Dieser Überprüfungslink wurde bereits verwendet; Ihre Überprüfung ist also möglicherweise schon gelungen. Falls nicht, starten Sie die Überprüfung bitte erneut.',
  'validation.unknown_hint':
    'Die gewählte Einrichtung ist nicht verfügbar. Bitte wählen Sie Ihre Einrichtung erneut.',
  'validation.hints_loading':
    'Die Liste der Einrichtungen wird noch geladen. Bitte versuchen Sie es in Kürze erneut.',
  'validation.incomplete':
    'Die Antwort der Überprüfung war unvollständig. Bitte starten Sie die Überprüfung erneut.',
  'validation.failed':
    'Ihre Zugehörigkeit konnte nicht sicher überprüft werden. Bitte starten Sie die Überprüfung erneut.',
  'start.again': 'Bitte starten Sie die Überprüfung erneut von der Seite des Shops aus.',
  'start.one_value': 'Bitte wählen Sie einen einzigen Wert.',
  'start.not_offered':
    'Diese Auswahl wird hier nicht angeboten. Bitte starten Sie die Überprüfung erneut von der Seite des Shops aus.',
  'start.affiliation': 'Bitte wählen Sie eine der angebotenen Zugehörigkeiten.',
  'start.option': 'Bitte wählen Sie eine der angebotenen Möglichkeiten.',
  'store.unavailable':
    'Der Shop konnte Ihre Überprüfung gerade nicht verarbeiten. Bitte versuchen Sie es in Kürze erneut.',
  'offer.unidentifiable':
    'Ihre Einrichtung hat nicht übermittelt, was dieses Angebot braucht, um wiederkehrende Kundinnen und Kunden zu erkennen; es kann daher nicht angewendet werden.',
  'hints.refresh_failed':
    'Die Liste der Einrichtungen konnte gerade nicht aktualisiert werden; die bisherige Liste wird weiter verwendet.',
  'docs.request_failed': 'Die Dokumentationsseite konnte die Anfrage nicht ausführen.',
  'docs.sync_failed': 'Die Dokumentation konnte nicht synchronisiert werden.',
};
