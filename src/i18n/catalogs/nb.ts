// catalog of shopper texts: norsk bokmål (Norwegian Bokmål; also no), nb
import type { ShopperTextCatalog } from '../texts.js';

/** Bokmål, du, as Norwegian shops write; «institusjon» as Feide names one, «tilknytning» for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Verifiseringen mislyktes',
  'page.failed.back': 'Tilbake til butikken',
  'page.failed.code': 'Feilkode: {code}',
  'page.failed.restart': 'Velg institusjonen din på nytt',
  'page.not_started.title': 'Verifiseringen ble ikke startet',
  'relay.title': 'Verifiseringen fullføres',
  'relay.working': 'Verifiseringen fullføres…',
  'relay.sending': 'Resultatet av verifiseringen sendes…',
  'relay.empty':
    'Fant ikke noe resultat av en verifisering på denne siden. Gå tilbake til butikken og start verifiseringen på nytt.',
  'relay.noscript':
    'JavaScript trengs for å fullføre verifiseringen. Slå det på og start verifiseringen på nytt.',
  'error.unknown': 'Noe gikk galt da tilknytningen din ble kontrollert. Prøv igjen.',
  'error.unreachable': 'Verifiseringstjenesten kan ikke nås akkurat nå. Prøv igjen om litt.',
  'error.misconfigured': 'Denne butikken er ikke riktig satt opp. Ta kontakt med butikken.',
  'error.scope': 'Denne butikken ba om en type verifisering som ikke er mulig. Ta kontakt med butikken.',
  'provider.unknown_institution':
    'Verifiseringstjenesten kjente ikke igjen den valgte institusjonen. Det var ikke din feil: Velg institusjonen din på nytt.',
  'provider.no_affiliation':
    'Institusjonen din bekreftet ingen tilknytning for kontoen du logget inn med. Sjekk at du brukte kontoen din ved denne institusjonen, eller spør brukerstøtten der.',
  'provider.affiliation_mismatch':
    'Institusjonen din bekreftet ikke tilknytningen dette tilbudet gjelder. Hvis butikken tilbyr en annen (for eksempel ansatt i stedet for student), velg den.',
  'provider.consent_denied':
    'Butikken kan bare kontrollere tilknytningen din med ditt samtykke. Start på nytt og godta å dele tilknytningen din for å få tilbudet.',
  'provider.authentication_failed': 'Innloggingen hos institusjonen din lyktes ikke. Prøv igjen.',
  'provider.not_allowed':
    'Denne butikken har ikke lov til å kontrollere denne typen tilknytning via verifiseringstjenesten. Ta kontakt med butikken.',
  'provider.denied':
    'Institusjonen din kunne ikke bekrefte tilknytningen din, eller du valgte å ikke dele den.',
  'provider.unavailable':
    'Verifiseringstjenesten kunne ikke behandle verifiseringen akkurat nå. Prøv igjen om litt.',
  'provider.shop_problem':
    'Verifiseringen kunne ikke startes på grunn av et problem hos butikken. Ta kontakt med butikken.',
  'provider.failed': 'Tilknytningen din kunne ikke verifiseres. Prøv igjen.',
  'provider.return_shop_problem':
    'Verifiseringen kunne ikke fullføres da du kom tilbake til butikken, på grunn av et problem hos butikken. Ta kontakt med butikken.',
  'provider.return_failed':
    'Verifiseringen kunne ikke fullføres da du kom tilbake til butikken. Start verifiseringen på nytt.',
  'validation.unknown_state':
    'Denne verifiseringslenken er ikke lenger gyldig. Start verifiseringen på nytt.',
  'validation.expired': 'Verifiseringen tok for lang tid. Start den på nytt.',
  'validation.replayed':
    'Denne verifiseringslenken er allerede brukt, så verifiseringen din kan allerede ha lyktes. Hvis ikke, start verifiseringen på nytt.',
  'validation.unknown_hint': 'Den valgte institusjonen er ikke tilgjengelig. Velg institusjonen din på nytt.',
  'validation.hints_loading': 'Listen over institusjoner lastes fortsatt inn. Prøv igjen om litt.',
  'validation.incomplete': 'Svaret fra verifiseringen var ufullstendig. Start verifiseringen på nytt.',
  'validation.failed':
    'Tilknytningen din kunne ikke verifiseres på en sikker måte. Start verifiseringen på nytt.',
  'start.again': 'Start verifiseringen på nytt fra butikkens side.',
  'start.one_value': 'Velg én verdi.',
  'start.not_offered': 'Dette valget tilbys ikke her. Start verifiseringen på nytt fra butikkens side.',
  'start.affiliation': 'Velg en av tilknytningene som tilbys.',
  'start.option': 'Velg ett av alternativene som tilbys.',
  'store.unavailable': 'Butikken kunne ikke behandle verifiseringen din akkurat nå. Prøv igjen om litt.',
  'offer.unidentifiable':
    'Institusjonen din delte ikke det dette tilbudet trenger for å kjenne igjen en kunde som kommer tilbake, så tilbudet kan ikke brukes.',
  'hints.refresh_failed':
    'Listen over institusjoner kunne ikke oppdateres akkurat nå; den forrige listen brukes fortsatt.',
  'docs.request_failed': 'Dokumentasjonsnettstedet kunne ikke fullføre forespørselen.',
  'docs.sync_failed': 'Dokumentasjonen kunne ikke synkroniseres.',
};
