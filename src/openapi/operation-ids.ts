import { registeredSlices } from '../common/module-slice.js';

/**
 * Stable operationIds, keyed by method and path (the public contract), never by controller or
 * handler names, which change with refactors: generated clients name their functions after
 * these. Each module declares its routes' ids in its slice (`operationIds`); the routes outside
 * /v1 that belong to no module are here. A route missing everywhere gets one derived from its
 * method and path (`getV1DispensasId…`), stable as long as the route is; give it a name in its
 * slice when it lands.
 */
const OPERATIONS_IDS: Record<string, string> = {
  'GET /health/live': 'healthLive',
  'GET /health/ready': 'healthReady',
  'GET /metrics': 'metrics',
  'GET /openapi.json': 'openapiDocument',
  'GET /openapi.yaml': 'openapiDocumentYaml',
  'GET /docs': 'apiDocs',
};

/** Every declared operationId: the slices' and the operations routes'. */
export const operationIds = (): Record<string, string> => ({
  ...Object.fromEntries(registeredSlices().flatMap((s) => Object.entries(s.operationIds ?? {}))),
  ...OPERATIONS_IDS,
});

/** `GET /v1/dispensas/{id_dispensa}` → `getV1DispensasIdDispensa`. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

export function operationIdFor(method: string, path: string): string {
  return operationIds()[`${method.toUpperCase()} ${path}`] ?? derivedOperationId(method, path);
}
