// catalog of shopper texts: the <institution-picker>'s, in every language of the SDK
import type { Language } from '../language.js';

/** The picker's texts in one language; `found` by plural category (`Intl.PluralRules`), `{count}` the number. */
export interface PickerTexts {
  label: string;
  placeholder: string;
  none: string;
  found: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
  recent: string;
  required: string;
}

export const PICKER_TEXTS: Record<Language, PickerTexts> = {
  af: {
    label: 'Instelling',
    placeholder: 'Tik die naam van u universiteit of kollege',
    none: 'Geen instelling gevind nie',
    found: { one: '{count} instelling gevind', other: '{count} instellings gevind' },
    recent: 'Onlangs gekies',
    required: 'Tik die naam van u instelling en kies dit dan uit die lys',
  },
  cs: {
    label: 'Instituce',
    placeholder: 'Zadejte název své univerzity nebo vysoké školy',
    none: 'Nebyla nalezena žádná instituce',
    found: {
      one: 'Nalezena {count} instituce',
      few: 'Nalezeny {count} instituce',
      many: 'Nalezeno {count} instituce',
      other: 'Nalezeno {count} institucí',
    },
    recent: 'Nedávno zvolené',
    required: 'Zadejte název své instituce a poté ji vyberte ze seznamu',
  },
  da: {
    label: 'Din institution',
    placeholder: 'Skriv navnet på dit universitet eller din uddannelsesinstitution',
    none: 'Ingen institution fundet',
    found: { one: '{count} institution fundet', other: '{count} institutioner fundet' },
    recent: 'Senest valgt',
    required: 'Skriv navnet på din institution, og vælg den på listen',
  },
  de: {
    label: 'Einrichtung',
    placeholder: 'Name Ihrer Hochschule eingeben',
    none: 'Keine Einrichtung gefunden',
    found: { one: '{count} Einrichtung gefunden', other: '{count} Einrichtungen gefunden' },
    recent: 'Zuletzt gewählt',
    required: 'Geben Sie den Namen Ihrer Einrichtung ein und wählen Sie sie aus der Liste',
  },
  el: {
    label: 'Ίδρυμα',
    placeholder: 'Πληκτρολογήστε το όνομα του πανεπιστημίου ή της σχολής σας',
    none: 'Δεν βρέθηκε ίδρυμα',
    found: { one: 'Βρέθηκε {count} ίδρυμα', other: 'Βρέθηκαν {count} ιδρύματα' },
    recent: 'Πρόσφατες επιλογές',
    required: 'Πληκτρολογήστε το όνομα του ιδρύματός σας και επιλέξτε το από τη λίστα',
  },
  en: {
    label: 'Institution',
    placeholder: 'Type the name of your university or college',
    none: 'No institution found',
    found: { one: '{count} institution found', other: '{count} institutions found' },
    recent: 'Recently chosen',
    required: 'Type the name of your institution, then choose it from the list',
  },
  es: {
    label: 'Institución',
    placeholder: 'Escribe el nombre de tu universidad o centro',
    none: 'No se ha encontrado ninguna institución',
    found: { one: '{count} institución encontrada', other: '{count} instituciones encontradas' },
    recent: 'Elegidas recientemente',
    required: 'Escribe el nombre de tu institución y elígela de la lista',
  },
  'es-419': {
    label: 'Institución',
    placeholder: 'Escriba el nombre de su universidad o institución',
    none: 'No se encontró ninguna institución',
    found: { one: '{count} institución encontrada', other: '{count} instituciones encontradas' },
    recent: 'Elegidas recientemente',
    required: 'Escriba el nombre de su institución y elíjala de la lista',
  },
  et: {
    label: 'Asutus',
    placeholder: 'Sisestage oma ülikooli või kõrgkooli nimi',
    none: 'Ühtegi asutust ei leitud',
    found: { one: 'Leiti {count} asutus', other: 'Leiti {count} asutust' },
    recent: 'Hiljuti valitud',
    required: 'Sisestage oma asutuse nimi ja valige see loendist',
  },
  fr: {
    label: 'Établissement',
    placeholder: 'Saisissez le nom de votre université ou école',
    none: 'Aucun établissement trouvé',
    found: { one: '{count} établissement trouvé', other: '{count} établissements trouvés' },
    recent: 'Choisis récemment',
    required: 'Saisissez le nom de votre établissement, puis choisissez-le dans la liste',
  },
  hu: {
    label: 'Intézmény',
    placeholder: 'Írja be egyeteme vagy főiskolája nevét',
    none: 'Nem található intézmény',
    found: { one: '{count} intézmény található', other: '{count} intézmény található' },
    recent: 'Nemrég választott',
    required: 'Írja be intézménye nevét, majd válassza ki a listából',
  },
  it: {
    label: 'Istituzione',
    placeholder: 'Scrivi il nome della tua università o scuola',
    none: 'Nessuna istituzione trovata',
    found: { one: '{count} istituzione trovata', other: '{count} istituzioni trovate' },
    recent: 'Scelte di recente',
    required: 'Scrivi il nome della tua istituzione, poi sceglila dall’elenco',
  },
  lt: {
    label: 'Institucija',
    placeholder: 'Įveskite savo universiteto ar kolegijos pavadinimą',
    none: 'Institucijų nerasta',
    found: {
      one: 'Rasta {count} institucija',
      few: 'Rastos {count} institucijos',
      many: 'Rasta {count} institucijos',
      other: 'Rasta {count} institucijų',
    },
    recent: 'Neseniai pasirinktos',
    required: 'Įveskite savo institucijos pavadinimą ir pasirinkite ją iš sąrašo',
  },
  nb: {
    label: 'Institusjon',
    placeholder: 'Skriv navnet på universitetet eller høyskolen din',
    none: 'Fant ingen institusjon',
    found: { one: '{count} institusjon funnet', other: '{count} institusjoner funnet' },
    recent: 'Nylig valgt',
    required: 'Skriv navnet på institusjonen din, og velg den fra listen',
  },
  nl: {
    label: 'Instelling',
    placeholder: 'Typ de naam van je universiteit of hogeschool',
    none: 'Geen instelling gevonden',
    found: { one: '{count} instelling gevonden', other: '{count} instellingen gevonden' },
    recent: 'Onlangs gekozen',
    required: 'Typ de naam van je instelling en kies die uit de lijst',
  },
  pt: {
    label: 'Instituição',
    placeholder: 'Escreva o nome da sua universidade ou escola',
    none: 'Nenhuma instituição encontrada',
    found: { one: '{count} instituição encontrada', other: '{count} instituições encontradas' },
    recent: 'Escolhidas recentemente',
    required: 'Escreva o nome da sua instituição e escolha-a na lista',
  },
  ru: {
    label: 'Организация',
    placeholder: 'Введите название вашего университета или колледжа',
    none: 'Организация не найдена',
    found: {
      one: 'Найдена {count} организация',
      few: 'Найдено {count} организации',
      many: 'Найдено {count} организаций',
      other: 'Найдено {count} организации',
    },
    recent: 'Недавно выбранные',
    required: 'Введите название вашей организации и выберите её из списка',
  },
  sv: {
    label: 'Lärosäte',
    placeholder: 'Skriv namnet på ditt universitet eller din högskola',
    none: 'Inget lärosäte hittades',
    found: { one: '{count} lärosäte hittades', other: '{count} lärosäten hittades' },
    recent: 'Nyligen valda',
    required: 'Skriv namnet på ditt lärosäte och välj det i listan',
  },
};
