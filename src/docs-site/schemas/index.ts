import { batchAnswerSchema } from '../batch.js';
import { oembedSchema } from '../resources/oembed.js';
import {
  blockSchema,
  mediaSchema,
  menuItemSchema,
  pageSchema,
  postSchema,
  revisionSchema,
  templateSchema,
} from './content.js';
import { indexSchema, namespaceIndexSchema } from './index-document.js';
import { currentUserSchema } from './user.js';

/**
 * The zod schemas the client checks answers with (unknown fields kept). Handy to type the `body` of a
 * batch result: `docsSiteSchemas.post.parse(result.body)`.
 *
 * @group Docs site
 */
export const docsSiteSchemas = Object.freeze({
  post: postSchema,
  page: pageSchema,
  media: mediaSchema,
  menuItem: menuItemSchema,
  block: blockSchema,
  template: templateSchema,
  revision: revisionSchema,
  index: indexSchema,
  namespaceIndex: namespaceIndexSchema,
  currentUser: currentUserSchema,
  oembed: oembedSchema,
  batchAnswer: batchAnswerSchema,
});
