import { invalidParam } from '../errors.js';
import { type JsonObject, PluginNamespace, type PluginQuery } from './plugin-base.js';
import { type UpdateOptions, updateMethod } from './shared.js';

/**
 * The knowledge-base search assistant (`/kb-ai-search/v1`). Answers are returned as parsed JSON.
 *
 * @group Docs site
 */
export class KbAiSearchResource extends PluginNamespace {
  readonly namespace = 'kb-ai-search/v1';

  /** `POST /start-conversation`. */
  async startConversation(body: JsonObject = {}): Promise<unknown> {
    return this.call('POST', '/start-conversation', 'kbAiSearch.startConversation', { body });
  }
  /** `POST /update-conversation`. */
  async updateConversation(body: JsonObject): Promise<unknown> {
    return this.call('POST', '/update-conversation', 'kbAiSearch.updateConversation', { body });
  }
  /** `GET /check-existing-conversation`. */
  async checkExistingConversation(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/check-existing-conversation', 'kbAiSearch.checkExistingConversation', {
      query,
    });
  }
  /** `GET /updatesettings`. */
  async updateSettings(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/updatesettings', 'kbAiSearch.updateSettings', { query });
  }
  /** `GET /tools`. */
  async tools(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/tools', 'kbAiSearch.tools', { query });
  }
  /** `GET /trainai`. */
  async trainAi(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/trainai', 'kbAiSearch.trainAi', { query });
  }
  /** `GET /onlinestatus`. */
  async onlineStatus(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/onlinestatus', 'kbAiSearch.onlineStatus', { query });
  }
  /** `GET /status`. */
  async status(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/status', 'kbAiSearch.status', { query });
  }
  /** `GET /askai`. */
  async askAi(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/askai', 'kbAiSearch.askAi', { query });
  }
  /** `GET /ratelimittest`. */
  async rateLimitTest(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/ratelimittest', 'kbAiSearch.rateLimitTest', { query });
  }
  /** `POST|PUT|PATCH /cleartrainingdata`. */
  async clearTrainingData(body: JsonObject = {}, options?: UpdateOptions): Promise<unknown> {
    const method = updateMethod(options, 'kbAiSearch.clearTrainingData');
    return this.call(method, '/cleartrainingdata', 'kbAiSearch.clearTrainingData', { body });
  }
}

/**
 * Knowledge-base settings (`/kb-settings/v1`).
 *
 * @group Docs site
 */
export class KbSettingsResource extends PluginNamespace {
  readonly namespace = 'kb-settings/v1';

  /** `GET /get`. */
  async get(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/get', 'kbSettings.get', { query });
  }
  /** `POST|PUT|PATCH /update`. */
  async update(body: JsonObject, options?: UpdateOptions): Promise<unknown> {
    return this.call(updateMethod(options, 'kbSettings.update'), '/update', 'kbSettings.update', { body });
  }
  /** `POST|PUT|PATCH /tabget`. */
  async tabGet(body: JsonObject = {}, options?: UpdateOptions): Promise<unknown> {
    return this.call(updateMethod(options, 'kbSettings.tabGet'), '/tabget', 'kbSettings.tabGet', { body });
  }
  /** `POST|PUT|PATCH /tabset`. */
  async tabSet(body: JsonObject, options?: UpdateOptions): Promise<unknown> {
    return this.call(updateMethod(options, 'kbSettings.tabSet'), '/tabset', 'kbSettings.tabSet', { body });
  }
}

/**
 * Knowledge-base notifications (`/kb-notifications/v1`).
 *
 * @group Docs site
 */
export class KbNotificationsResource extends PluginNamespace {
  readonly namespace = 'kb-notifications/v1';

  /** `GET /get`. */
  async get(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/get', 'kbNotifications.get', { query });
  }
  /** Dismiss one notification by id, or every one with `'all'` (`POST|PUT|PATCH /dismiss`). */
  async dismiss(id: string, options?: UpdateOptions): Promise<unknown> {
    const where = 'kbNotifications.dismiss';
    if (typeof id !== 'string' || id.trim() === '') {
      throw invalidParam('id', 'is required: a notification id, or "all"', where);
    }
    return this.call(updateMethod(options, where), '/dismiss', where, { body: { id } });
  }
}

/**
 * Knowledge-base statistics (`/kb/v1`).
 *
 * @group Docs site
 */
export class KbResource extends PluginNamespace {
  readonly namespace = 'kb/v1';

  /** `POST /server_stats`. */
  async serverStats(body: JsonObject = {}): Promise<unknown> {
    return this.call('POST', '/server_stats', 'kb.serverStats', { body });
  }
}

/**
 * The knowledge-base article writer (`/kb-ai-article-writer/v1`).
 *
 * @group Docs site
 */
export class KbArticleWriterResource extends PluginNamespace {
  readonly namespace = 'kb-ai-article-writer/v1';

  /** `GET /status`. */
  async status(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/status', 'kbArticleWriter.status', { query });
  }
  /** `POST /generate-article`. */
  async generateArticle(body: JsonObject): Promise<unknown> {
    return this.call('POST', '/generate-article', 'kbArticleWriter.generateArticle', { body });
  }
}

/**
 * The single-sign-on callback route of the site (`/oauth_idp_intiate`, spelt as the site spells it).
 *
 * @group Docs site
 */
export class OAuthIdpResource extends PluginNamespace {
  readonly namespace = 'oauth_idp_intiate';

  /** `GET /mooidccallback`. */
  async callback(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/mooidccallback', 'oauthIdp.callback', { query });
  }
}
