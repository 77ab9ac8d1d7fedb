import { z } from 'zod';
import { links, looseRecord } from './common.js';

export const currentUserSchema = z
  .looseObject({
    id: z.number().int(),
    name: z.string().optional(),
    slug: z.string().optional(),
    username: z.string().optional(),
    roles: z.array(z.string()).optional(),
    capabilities: looseRecord.optional(),
    meta: looseRecord.optional(),
    _links: links,
  })
  .meta({
    id: 'CurrentUser',
    description: 'The authenticated user (`GET /{ns}/users/me`), as far as the client relies on it.',
  });
