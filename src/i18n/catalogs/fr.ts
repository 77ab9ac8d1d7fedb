// catalog of shopper texts: français (French), fr
import type { ShopperTextCatalog } from '../texts.js';

/** Vouvoiement, as French shops write; « établissement » as the French federation (Renater) names an institution; a no-break space before « : » and « ; ». */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'Échec de la vérification',
  'page.failed.back': 'Retour à la boutique',
  'page.failed.code': 'Code d’erreur : {code}',
  'page.failed.restart': 'Choisir à nouveau votre établissement',
  'page.not_started.title': 'Vérification non démarrée',
  'relay.title': 'Finalisation de la vérification',
  'relay.working': 'Finalisation de la vérification…',
  'relay.sending': 'Envoi du résultat de la vérification…',
  'relay.empty':
    'Aucun résultat de vérification n’a été trouvé sur cette page. Veuillez retourner à la boutique et recommencer la vérification.',
  'relay.noscript':
    'JavaScript est nécessaire pour finaliser la vérification. Veuillez l’activer et recommencer la vérification.',
  'error.unknown':
    'Un problème est survenu lors de la vérification de votre affiliation. Veuillez réessayer.',
  'error.unreachable':
    'Le service de vérification est momentanément injoignable. Veuillez réessayer dans un instant.',
  'error.misconfigured': 'Cette boutique n’est pas configurée correctement. Veuillez contacter la boutique.',
  'error.scope':
    'Cette boutique a demandé une vérification qui n’est pas possible. Veuillez contacter la boutique.',
  'provider.unknown_institution':
    'Le service de vérification n’a pas reconnu l’établissement choisi. Vous n’y êtes pour rien : veuillez choisir à nouveau votre établissement.',
  'provider.no_affiliation':
    'Votre établissement n’a confirmé aucune affiliation pour le compte utilisé lors de la connexion. Vérifiez qu’il s’agit bien de votre compte dans cet établissement, ou adressez-vous à son assistance.',
  'provider.affiliation_mismatch':
    'Votre établissement n’a pas confirmé l’affiliation à laquelle cette offre est destinée. Si la boutique en propose une autre (par exemple personnel au lieu d’étudiant), veuillez choisir celle-ci.',
  'provider.consent_denied':
    'La boutique ne peut vérifier votre affiliation qu’avec votre consentement. Pour bénéficier de l’offre, recommencez et acceptez de partager votre affiliation.',
  'provider.authentication_failed':
    'La connexion auprès de votre établissement n’a pas abouti. Veuillez réessayer.',
  'provider.not_allowed':
    'Cette boutique n’est pas autorisée à vérifier ce type d’affiliation par le service de vérification. Veuillez contacter la boutique.',
  'provider.denied':
    'Votre affiliation n’a pas pu être confirmée par votre établissement, ou vous avez refusé de la partager.',
  'provider.unavailable':
    'Le service de vérification n’a pas pu traiter la vérification pour le moment. Veuillez réessayer dans un instant.',
  'provider.shop_problem':
    'La vérification n’a pas pu démarrer en raison d’un problème du côté de la boutique. Veuillez contacter la boutique.',
  'provider.failed': 'Votre affiliation n’a pas pu être vérifiée. Veuillez réessayer.',
  'provider.return_shop_problem':
    'La vérification n’a pas pu être finalisée à votre retour sur la boutique, en raison d’un problème du côté de la boutique. Veuillez contacter la boutique.',
  'provider.return_failed':
    'La vérification n’a pas pu être finalisée à votre retour sur la boutique. Veuillez recommencer la vérification.',
  'validation.unknown_state':
    'Ce lien de vérification n’est plus valable. Veuillez recommencer la vérification.',
  'validation.expired': 'La vérification a pris trop de temps. Veuillez la recommencer.',
  'validation.replayed':
    'Ce lien de vérification a déjà été utilisé ; votre vérification a donc peut-être déjà réussi. Sinon, veuillez recommencer la vérification.',
  'validation.unknown_hint':
    'L’établissement sélectionné n’est pas disponible. Veuillez choisir à nouveau votre établissement.',
  'validation.hints_loading':
    'La liste des établissements est encore en cours de chargement. Veuillez réessayer dans un instant.',
  'validation.incomplete':
    'La réponse de la vérification était incomplète. Veuillez recommencer la vérification.',
  'validation.failed':
    'Votre affiliation n’a pas pu être vérifiée de façon sûre. Veuillez recommencer la vérification.',
  'start.again': 'Veuillez recommencer la vérification depuis la page de la boutique.',
  'start.one_value': 'Veuillez choisir une seule valeur.',
  'start.not_offered':
    'Ce choix n’est pas proposé ici. Veuillez recommencer la vérification depuis la page de la boutique.',
  'start.affiliation': 'Veuillez choisir l’une des affiliations proposées.',
  'start.option': 'Veuillez choisir l’une des options proposées.',
  'store.unavailable':
    'La boutique n’a pas pu traiter votre vérification pour le moment. Veuillez réessayer dans un instant.',
  'offer.unidentifiable':
    'Votre établissement n’a pas transmis ce dont cette offre a besoin pour reconnaître un client déjà venu ; elle ne peut donc pas être appliquée.',
  'hints.refresh_failed':
    'La liste des établissements n’a pas pu être mise à jour pour le moment ; la liste précédente reste utilisée.',
  'docs.request_failed': 'Le site de documentation n’a pas pu traiter la requête.',
  'docs.sync_failed': 'La documentation n’a pas pu être synchronisée.',
};
