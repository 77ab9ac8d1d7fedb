// catalog of shopper texts: español de España (Spanish, Spain), es
import type { ShopperTextCatalog } from '../texts.js';

/** Spanish of Spain: tuteo, as shops in Spain write; the perfect tense of Spain («ha fallado»). */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'La verificación ha fallado',
  'page.failed.back': 'Volver a la tienda',
  'page.failed.code': 'Código de error: {code}',
  'page.failed.restart': 'Elegir de nuevo tu institución',
  'page.not_started.title': 'No se ha iniciado la verificación',
  'relay.title': 'Finalizando la verificación',
  'relay.working': 'Finalizando la verificación…',
  'relay.sending': 'Enviando el resultado de la verificación…',
  'relay.empty':
    'No se ha encontrado ningún resultado de verificación en esta página. Vuelve a la tienda e inicia de nuevo la verificación.',
  'relay.noscript':
    'Se necesita JavaScript para finalizar la verificación. Actívalo e inicia de nuevo la verificación.',
  'error.unknown': 'Algo ha fallado al comprobar tu vinculación. Inténtalo de nuevo.',
  'error.unreachable':
    'No se ha podido contactar con el servicio de verificación en este momento. Inténtalo de nuevo en unos instantes.',
  'error.misconfigured': 'Esta tienda no está bien configurada. Ponte en contacto con la tienda.',
  'error.scope':
    'Esta tienda ha solicitado un tipo de verificación que no es posible. Ponte en contacto con la tienda.',
  'provider.unknown_institution':
    'El servicio de verificación no ha reconocido la institución elegida. No es culpa tuya: elige de nuevo tu institución.',
  'provider.no_affiliation':
    'Tu institución no ha confirmado ninguna vinculación para la cuenta con la que has iniciado sesión. Comprueba que has usado tu cuenta de esta institución o consulta a su servicio de ayuda.',
  'provider.affiliation_mismatch':
    'Tu institución no ha confirmado la vinculación a la que se destina esta oferta. Si la tienda ofrece otra (por ejemplo, personal en lugar de estudiante), elige esa.',
  'provider.consent_denied':
    'La tienda solo puede comprobar tu vinculación con tu consentimiento. Para obtener la oferta, empieza de nuevo y acepta compartir tu vinculación.',
  'provider.authentication_failed': 'No se ha podido iniciar sesión en tu institución. Inténtalo de nuevo.',
  'provider.not_allowed':
    'Esta tienda no puede comprobar este tipo de vinculación a través del servicio de verificación. Ponte en contacto con la tienda.',
  'provider.denied': 'Tu institución no ha podido confirmar tu vinculación, o has decidido no compartirla.',
  'provider.unavailable':
    'El servicio de verificación no ha podido procesar la verificación en este momento. Inténtalo de nuevo en unos instantes.',
  'provider.shop_problem':
    'No se ha podido iniciar la verificación por un problema de la tienda. Ponte en contacto con la tienda.',
  'provider.failed': 'No se ha podido verificar tu vinculación. Inténtalo de nuevo.',
  'provider.return_shop_problem':
    'No se ha podido completar la verificación al volver a la tienda, por un problema de la tienda. Ponte en contacto con la tienda.',
  'provider.return_failed':
    'No se ha podido completar la verificación al volver a la tienda. Inicia de nuevo la verificación.',
  'validation.unknown_state': 'Este enlace de verificación ya no es válido. Inicia de nuevo la verificación.',
  'validation.expired': 'La verificación ha tardado demasiado. Iníciala de nuevo.',
  'validation.replayed':
    'Este enlace de verificación ya se ha usado, así que es posible que tu verificación ya se haya completado. Si no es así, inicia de nuevo la verificación.',
  'validation.unknown_hint': 'La institución seleccionada no está disponible. Elige de nuevo tu institución.',
  'validation.hints_loading':
    'La lista de instituciones aún se está cargando. Inténtalo de nuevo en unos instantes.',
  'validation.incomplete':
    'La respuesta de la verificación estaba incompleta. Inicia de nuevo la verificación.',
  'validation.failed':
    'No se ha podido verificar tu vinculación de forma segura. Inicia de nuevo la verificación.',
  'start.again': 'Inicia de nuevo la verificación desde la página de la tienda.',
  'start.one_value': 'Elige un solo valor.',
  'start.not_offered':
    'Esta opción no se ofrece aquí. Inicia de nuevo la verificación desde la página de la tienda.',
  'start.affiliation': 'Elige una de las vinculaciones ofrecidas.',
  'start.option': 'Elige una de las opciones ofrecidas.',
  'store.unavailable':
    'La tienda no ha podido procesar tu verificación en este momento. Inténtalo de nuevo en unos instantes.',
  'offer.unidentifiable':
    'Tu institución no ha compartido lo que esta oferta necesita para reconocer a un cliente que vuelve, así que no se puede aplicar.',
  'hints.refresh_failed':
    'No se ha podido actualizar la lista de instituciones en este momento; se sigue usando la lista anterior.',
  'docs.request_failed': 'El sitio de documentación no ha podido completar la solicitud.',
  'docs.sync_failed': 'No se ha podido sincronizar la documentación.',
};
