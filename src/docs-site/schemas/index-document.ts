import { z } from 'zod';
import { emptyArrayAsObject, looseRecord } from './common.js';

export const routeArgSchema = z
  .looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
    default: z.unknown().optional(),
    enum: z.array(z.unknown()).optional(),
    maxItems: z.number().int().optional(),
    minItems: z.number().int().optional(),
  })
  .meta({
    id: 'DocsSiteRouteArg',
    description: 'One argument of a route endpoint, as the index describes it.',
    group: '',
  });

export const routeEndpointSchema = z
  .looseObject({
    methods: z.array(z.string()),
    args: emptyArrayAsObject(z.record(z.string(), routeArgSchema)).optional(),
    allow_batch: z.union([z.boolean(), looseRecord]).optional(),
  })
  .meta({
    id: 'DocsSiteEndpoint',
    description: 'One endpoint of a route: its methods and arguments.',
    group: '',
  });

export const routeSchema = z
  .looseObject({
    namespace: z.string(),
    methods: z.array(z.string()),
    endpoints: z.array(routeEndpointSchema),
    allow_batch: z.union([z.boolean(), looseRecord]).optional(),
    _links: looseRecord.optional(),
  })
  .meta({ id: 'DocsSiteRoute', description: 'One route of the index.' });

export const authenticationSchema = emptyArrayAsObject(
  z.looseObject({
    'application-passwords': z
      .looseObject({
        endpoints: z.looseObject({ authorization: z.string() }),
      })
      .optional(),
  }),
);

export const indexSchema = z
  .looseObject({
    name: z.string().optional(),
    description: z.string().optional(),
    url: z.string().optional(),
    home: z.string().optional(),
    gmt_offset: z.union([z.string(), z.number()]).optional(),
    timezone_string: z.string().optional(),
    page_for_posts: z.number().int().optional(),
    page_on_front: z.number().int().optional(),
    show_on_front: z.string().optional(),
    namespaces: z.array(z.string()),
    authentication: authenticationSchema.optional(),
    routes: emptyArrayAsObject(z.record(z.string(), routeSchema)).optional(),
    _links: looseRecord.optional(),
  })
  .meta({ id: 'DocsSiteIndex', description: 'The index document (`GET {rest_root}/`), spec section 2.' });

export const namespaceIndexSchema = z
  .looseObject({
    namespace: z.string(),
    routes: emptyArrayAsObject(z.record(z.string(), routeSchema)).optional(),
    _links: looseRecord.optional(),
  })
  .meta({ id: 'NamespaceIndex', description: 'The root of one namespace (`GET /forms/v1`).' });
