// Loader hook of scripts/import-graph.mjs: records every module URL that Node resolves, with the
// module that asked for it, and posts the list back to the main thread when asked.
let port;
const edges = [];

export function initialize(data) {
  port = data.port;
  port.on('message', () => port.postMessage(edges));
  port.unref();
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  edges.push([context.parentURL ?? null, result.url]);
  return result;
}
