// catalog of shopper texts: español de Latinoamérica (Spanish, Latin America), es-419
import type { ShopperTextCatalog } from '../texts.js';

/** Latin American Spanish: usted, neutral across the region; the preterite («falló»), «nuevamente», «regresar». */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'La verificación falló',
  'page.failed.back': 'Volver a la tienda',
  'page.failed.code': 'Código de error: {code}',
  'page.failed.restart': 'Elegir nuevamente su institución',
  'page.not_started.title': 'No se inició la verificación',
  'relay.title': 'Finalizando la verificación',
  'relay.working': 'Finalizando la verificación…',
  'relay.sending': 'Enviando el resultado de la verificación…',
  'relay.empty':
    'No se encontró ningún resultado de verificación en esta página. Regrese a la tienda e inicie nuevamente la verificación.',
  'relay.noscript':
    'Se necesita JavaScript para finalizar la verificación. Actívelo e inicie nuevamente la verificación.',
  'error.unknown': 'Ocurrió un problema al comprobar su vinculación. Inténtelo nuevamente.',
  'error.unreachable':
    'No fue posible comunicarse con el servicio de verificación en este momento. Inténtelo nuevamente en unos instantes.',
  'error.misconfigured': 'Esta tienda no está configurada correctamente. Comuníquese con la tienda.',
  'error.scope': 'Esta tienda solicitó un tipo de verificación que no es posible. Comuníquese con la tienda.',
  'provider.unknown_institution':
    'El servicio de verificación no reconoció la institución elegida. No es su culpa: elija nuevamente su institución.',
  'provider.no_affiliation':
    'Su institución no confirmó ninguna vinculación para la cuenta con la que inició sesión. Verifique que usó su cuenta de esta institución o consulte a su mesa de ayuda.',
  'provider.affiliation_mismatch':
    'Su institución no confirmó la vinculación a la que está destinada esta oferta. Si la tienda ofrece otra (por ejemplo, personal en lugar de estudiante), elija esa.',
  'provider.consent_denied':
    'La tienda solo puede comprobar su vinculación con su consentimiento. Para obtener la oferta, comience nuevamente y acepte compartir su vinculación.',
  'provider.authentication_failed': 'No fue posible iniciar sesión en su institución. Inténtelo nuevamente.',
  'provider.not_allowed':
    'Esta tienda no puede comprobar este tipo de vinculación a través del servicio de verificación. Comuníquese con la tienda.',
  'provider.denied': 'Su institución no pudo confirmar su vinculación, o usted decidió no compartirla.',
  'provider.unavailable':
    'El servicio de verificación no pudo procesar la verificación en este momento. Inténtelo nuevamente en unos instantes.',
  'provider.shop_problem':
    'No fue posible iniciar la verificación debido a un problema de la tienda. Comuníquese con la tienda.',
  'provider.failed': 'No fue posible verificar su vinculación. Inténtelo nuevamente.',
  'provider.return_shop_problem':
    'No fue posible completar la verificación al regresar a la tienda, debido a un problema de la tienda. Comuníquese con la tienda.',
  'provider.return_failed':
    'No fue posible completar la verificación al regresar a la tienda. Inicie nuevamente la verificación.',
  'validation.unknown_state':
    'Este enlace de verificación ya no es válido. Inicie nuevamente la verificación.',
  'validation.expired': 'La verificación tardó demasiado. Iníciela nuevamente.',
  'validation.replayed':
    'Este enlace de verificación ya se usó, por lo que es posible que su verificación ya se haya completado. Si no es así, inicie nuevamente la verificación.',
  'validation.unknown_hint':
    'La institución seleccionada no está disponible. Elija nuevamente su institución.',
  'validation.hints_loading':
    'La lista de instituciones todavía se está cargando. Inténtelo nuevamente en unos instantes.',
  'validation.incomplete':
    'La respuesta de la verificación estaba incompleta. Inicie nuevamente la verificación.',
  'validation.failed':
    'No fue posible verificar su vinculación de forma segura. Inicie nuevamente la verificación.',
  'start.again': 'Inicie nuevamente la verificación desde la página de la tienda.',
  'start.one_value': 'Elija un solo valor.',
  'start.not_offered':
    'Esta opción no se ofrece aquí. Inicie nuevamente la verificación desde la página de la tienda.',
  'start.affiliation': 'Elija una de las vinculaciones ofrecidas.',
  'start.option': 'Elija una de las opciones ofrecidas.',
  'store.unavailable':
    'La tienda no pudo procesar su verificación en este momento. Inténtelo nuevamente en unos instantes.',
  'offer.unidentifiable':
    'Su institución no compartió lo que esta oferta necesita para reconocer a un cliente que regresa, por lo que no se puede aplicar.',
  'hints.refresh_failed':
    'No fue posible actualizar la lista de instituciones en este momento; se sigue usando la lista anterior.',
  'docs.request_failed': 'El sitio de documentación no pudo completar la solicitud.',
  'docs.sync_failed': 'No fue posible sincronizar la documentación.',
};
