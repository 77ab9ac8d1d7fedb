// catalog of shopper texts: português (Portuguese), pt
import type { ShopperTextCatalog } from '../texts.js';

/** European Portuguese (the service is European), formal third person («a sua»); «vínculo» for the affiliation. */
export const texts: ShopperTextCatalog = {
  'page.failed.title': 'A verificação falhou',
  'page.failed.back': 'Voltar à loja',
  'page.failed.code': 'Código de erro: {code}',
  'page.failed.restart': 'Escolher novamente a sua instituição',
  'page.not_started.title': 'A verificação não foi iniciada',
  'relay.title': 'Conclusão da verificação',
  'relay.working': 'A concluir a verificação…',
  'relay.sending': 'A enviar o resultado da verificação…',
  'relay.empty':
    'Não foi encontrado nenhum resultado de verificação nesta página. Volte à loja e inicie novamente a verificação.',
  'relay.noscript':
    'É necessário JavaScript para concluir a verificação. Ative-o e inicie novamente a verificação.',
  'error.unknown': 'Ocorreu um problema ao verificar o seu vínculo. Tente novamente.',
  'error.unreachable':
    'Neste momento não é possível contactar o serviço de verificação. Tente novamente dentro de instantes.',
  'error.misconfigured': 'Esta loja não está configurada corretamente. Contacte a loja.',
  'error.scope': 'Esta loja pediu um tipo de verificação que não é possível. Contacte a loja.',
  'provider.unknown_institution':
    'O serviço de verificação não reconheceu a instituição escolhida. A culpa não é sua: escolha novamente a sua instituição.',
  'provider.no_affiliation':
    'A sua instituição não confirmou nenhum vínculo para a conta com que iniciou sessão. Verifique se utilizou a sua conta desta instituição ou contacte o apoio técnico da instituição.',
  'provider.affiliation_mismatch':
    'A sua instituição não confirmou o vínculo a que esta oferta se destina. Se a loja oferecer outro (por exemplo, funcionário em vez de estudante), escolha esse.',
  'provider.consent_denied':
    'A loja só pode verificar o seu vínculo com o seu consentimento. Para obter a oferta, comece novamente e aceite partilhar o seu vínculo.',
  'provider.authentication_failed': 'Não foi possível iniciar sessão na sua instituição. Tente novamente.',
  'provider.not_allowed':
    'Esta loja não pode verificar este tipo de vínculo através do serviço de verificação. Contacte a loja.',
  'provider.denied': 'A sua instituição não conseguiu confirmar o seu vínculo, ou optou por não o partilhar.',
  'provider.unavailable':
    'Neste momento o serviço de verificação não conseguiu tratar a verificação. Tente novamente dentro de instantes.',
  'provider.shop_problem':
    'Não foi possível iniciar a verificação devido a um problema da loja. Contacte a loja.',
  'provider.failed': 'Não foi possível verificar o seu vínculo. Tente novamente.',
  'provider.return_shop_problem':
    'Não foi possível concluir a verificação quando regressou à loja, devido a um problema da loja. Contacte a loja.',
  'provider.return_failed':
    'Não foi possível concluir a verificação quando regressou à loja. Inicie novamente a verificação.',
  'validation.unknown_state': 'Esta ligação de verificação já não é válida. Inicie novamente a verificação.',
  'validation.expired': 'A verificação demorou demasiado tempo. Inicie-a novamente.',
  'validation.replayed':
    'Esta ligação de verificação já foi utilizada, pelo que a sua verificação pode já ter sido concluída com êxito. Caso contrário, inicie novamente a verificação.',
  'validation.unknown_hint':
    'A instituição selecionada não está disponível. Escolha novamente a sua instituição.',
  'validation.hints_loading':
    'A lista de instituições ainda está a carregar. Tente novamente dentro de instantes.',
  'validation.incomplete': 'A resposta da verificação estava incompleta. Inicie novamente a verificação.',
  'validation.failed':
    'Não foi possível verificar o seu vínculo de forma segura. Inicie novamente a verificação.',
  'start.again': 'Inicie novamente a verificação a partir da página da loja.',
  'start.one_value': 'Escolha um único valor.',
  'start.not_offered':
    'Esta opção não está disponível aqui. Inicie novamente a verificação a partir da página da loja.',
  'start.affiliation': 'Escolha um dos vínculos disponíveis.',
  'start.option': 'Escolha uma das opções disponíveis.',
  'store.unavailable':
    'Neste momento a loja não conseguiu tratar a sua verificação. Tente novamente dentro de instantes.',
  'offer.unidentifiable':
    'A sua instituição não partilhou o que esta oferta precisa para reconhecer um cliente que regressa, pelo que não pode ser aplicada.',
  'hints.refresh_failed':
    'Neste momento não foi possível atualizar a lista de instituições; continua a ser utilizada a lista anterior.',
  'docs.request_failed': 'O site de documentação não conseguiu concluir o pedido.',
  'docs.sync_failed': 'Não foi possível sincronizar a documentação.',
};
