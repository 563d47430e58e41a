import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  ServerObject,
} from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { API_KEY_SCHEME, API_SECRET_SCHEME, CITIZEN_TOKEN_SCHEME } from '../common/http/access.js';
import { registeredSlices } from '../common/module-slice.js';
import { ID_TRANSACCION_PATTERN, UUID_PATTERN } from '../common/validation/patterns.js';
import { EXAMPLES_BY_PROPERTY } from './examples.js';
import { addErrorExamples, addExamples, scopeOf } from './operation-examples.js';
import { addOperationsRoutes } from './operations-routes.js';
import { closeRequestBodies, isRef, operations, restrictText } from './request-schemas.js';
import {
  ANY_ROUTE_STATUSES,
  ERROR_ENVELOPE_REF,
  EVERY_ANSWER_HEADERS,
  HEADERS,
  headerRef,
  rateLimitHeaders,
  responseNameFor,
  responseRef,
  standardResponses,
  statusHeaders,
} from './standard-responses.js';
import { usedTags } from './tags.js';

/**
 * The conventions every operation shares, applied once to the document Nest builds from the
 * controllers, so that controllers only declare what is particular to them: operationIds,
 * security, the standard answers and headers, request schemas that say what the server
 * enforces, and examples. Pure: the document in, the same document completed.
 */

export interface DocumentSettings {
  /** INSURER_NAME: names the catalogue's `<insurer>_descuento` member. */
  insurerName: string;
  /** PUBLIC_BASE_URL, when the deployment sets one. */
  publicBaseUrl?: string;
}

/** Path parameters by name: what the server accepts; a route's own pattern (`{cuir}`) is kept. */
const PATH_PARAMETERS: Record<string, SchemaObject> = {
  id_transaccion: { type: 'string', pattern: ID_TRANSACCION_PATTERN, maxLength: 18 },
};

/** What the path's ids are, by name, for the routes that declare none of their own. */
const PATH_PARAMETER_DESCRIPTIONS: Record<string, string> = {
  id_transaccion:
    "The prescription's transaction id, as its registration answered it (decimal digits). Another client's id answers 404, exactly like a missing one.",
  reserva_id:
    "The reservation's id (a UUID), as POST /v1/dispensas/reservas answered it. Another client's id answers 404, exactly like a missing one.",
  id_dispensa:
    "The dispensation's id (a UUID), as POST /v1/dispensas answered it. Another client's id answers 404, exactly like a missing one.",
};

/**
 * Stable operationIds, keyed by method and path, never by handler names: generated clients name
 * their functions after them. Each module declares its routes' in its slice; these are the
 * routes of no module; a route named nowhere gets one derived from its method and path.
 */
const OPERATIONS_IDS: Record<string, string> = {
  'GET /health/live': 'healthLive',
  'GET /health/ready': 'healthReady',
  'GET /metrics': 'metrics',
  'GET /openapi.json': 'openapiDocument',
  'GET /openapi.yaml': 'openapiDocumentYaml',
  'GET /docs': 'apiDocs',
};

/** Statuses of the standard answers every operation lists (besides its own). */
const EVERY_OPERATION = [400, 404, 405, 408, 431, 500, 503];
const AUTHENTICATED = [401, 403, 429];
/** The citizen's routes take a token, not a client's keys: no scope, so no 403. */
const CITIZEN = [401, 429];
/** Errors an idempotent operation stores and replays: from validation on, never a 5xx. */
const REPLAYABLE_ERRORS = [400, 404, 409, 422];
const WITH_BODY = [413, 415];

const toAscii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

export function completeDocument(doc: OpenAPIObject, settings: DocumentSettings): OpenAPIObject {
  addOperationsRoutes(doc);
  const components = (doc.components ??= {});
  components.headers = { ...components.headers, ...HEADERS };
  components.responses = { ...components.responses, ...standardResponses() };
  // Both headers in one requirement object: together, not either.
  doc.security = [{ [API_KEY_SCHEME]: [], [API_SECRET_SCHEME]: [] }];
  const url = settings.publicBaseUrl || '/';
  const description = settings.publicBaseUrl
    ? 'This deployment (production or staging: its PUBLIC_BASE_URL)'
    : 'This deployment, relative to where this document is served (local, test, staging or production)';
  doc.servers = [{ url, description, 'x-internal': false } as ServerObject];

  const ids = {
    ...Object.fromEntries(registeredSlices().flatMap((s) => Object.entries(s.operationIds ?? {}))),
    ...OPERATIONS_IDS,
  };
  for (const { path, method, op } of operations(doc)) {
    const route = `${method.toUpperCase()} ${path}`;
    op.operationId = ids[route] ?? derivedOperationId(method, path);
    completeOperation(path, method, op, components.responses.BadRequest as ResponseObject);
  }
  closeRequestBodies(doc);
  const lookup = (ref: string) =>
    components.schemas?.[ref.replace('#/components/schemas/', '')] as SchemaObject | undefined;
  for (const { op } of operations(doc)) {
    addExamples(op, lookup);
    addErrorExamples(op, components.responses);
  }
  dropUnusedResponses(doc);
  nameInsurerMember(doc, settings.insurerName);
  doc.tags = usedTags(new Set(operations(doc).flatMap(({ op }) => op.tags ?? [])));
  (doc as unknown as Record<string, unknown>)['x-unmatched-route-responses'] = Object.fromEntries(
    ANY_ROUTE_STATUSES.map((s) => [String(s), responseRef(responseNameFor(s))]),
  );
  return doc;
}

/** `GET /v1/dispensas/{id_dispensa}` → `getV1DispensasIdDispensa`. */
function derivedOperationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

function completeOperation(
  path: string,
  method: string,
  op: OperationObject,
  badRequest: ResponseObject,
): void {
  op.tags = (op.tags ?? []).map(toAscii);
  const api = path.startsWith('/v1/');
  if (!api) op.security = [];
  // Rate-limit headers are always on the 2xx of API-key operations (the client's budget) and of
  // the citizen-token ones (the citizen's or the address's, whichever is nearer its end).
  const keyed =
    api &&
    (op.security ?? [{ [API_KEY_SCHEME]: [] }]).some(
      (r) => API_KEY_SCHEME in r || CITIZEN_TOKEN_SCHEME in r,
    );
  const citizen =
    !!op.security?.length &&
    op.security.every((r) => Object.keys(r).join() === CITIZEN_TOKEN_SCHEME);
  const scope = scopeOf(op);
  if (scope && !op.description?.includes('**Scope:**')) {
    const line = `**Scope:** \`${scope}\` (send X-API-Key and X-API-Secret of a client holding it; without it: 403).`;
    op.description = op.description ? `${op.description}\n\n${line}` : line;
  }
  for (const p of op.parameters ?? []) if (!isRef(p)) completeParameter(p);
  const idempotent = (op.parameters ?? []).some(
    (p) => !isRef(p) && p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
  );

  const standard = [
    ...EVERY_OPERATION,
    ...(api ? (citizen ? CITIZEN : AUTHENTICATED) : []),
    ...(['post', 'put', 'patch'].includes(method) ? WITH_BODY : []),
  ];
  for (const status of standard) op.responses[status] ??= responseRef(responseNameFor(status));
  // A stored validation failure is replayed too: the idempotent operation's 400 says so.
  if (idempotent && isRef(op.responses[400] ?? {})) op.responses[400] = structuredClone(badRequest);
  for (const [status, response] of Object.entries(op.responses)) {
    if (!response || isRef(response)) continue;
    completeResponse(Number(status), response, { api, keyed, idempotent });
  }
  op.responses = Object.fromEntries(
    Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)),
  );
}

function completeParameter(p: ParameterObject): void {
  if (p.in === 'path' && !p.description && PATH_PARAMETER_DESCRIPTIONS[p.name]) {
    p.description = PATH_PARAMETER_DESCRIPTIONS[p.name];
  }
  if (p.in === 'path' && PATH_PARAMETERS[p.name]) {
    const own = p.schema && !isRef(p.schema) ? p.schema : {};
    if (!own.pattern) p.schema = { ...own, ...PATH_PARAMETERS[p.name] };
  }
  const schema = p.schema && !isRef(p.schema) ? p.schema : undefined;
  if (schema?.type === 'string' && schema.format === 'uuid' && schema.pattern === undefined) {
    Object.assign(schema, { pattern: UUID_PATTERN, minLength: 36, maxLength: 36 });
  }
  if ((p.in === 'query' || p.in === 'path') && schema?.type === 'string') restrictText(schema);
  if (p.example === undefined && schema?.example === undefined) {
    const example = EXAMPLES_BY_PROPERTY[p.name];
    if (example !== undefined && example !== null) p.example = example;
  }
}

function completeResponse(
  status: number,
  response: ResponseObject,
  on: { api: boolean; keyed: boolean; idempotent: boolean },
): void {
  const headers: Record<string, HeaderObject | ReferenceObject> = Object.fromEntries(
    EVERY_ANSWER_HEADERS.map((h) => [h, headerRef(h)]),
  );
  const success = status >= 200 && status < 300;
  // Contract §1: nosniff on every answer, no-store on every /v1 answer (errors included).
  headers['X-Content-Type-Options'] = { ...HEADERS['X-Content-Type-Options'], required: true };
  if (on.api) {
    headers['Cache-Control'] = {
      ...HEADERS['Cache-Control'],
      required: true,
      schema: { type: 'string', enum: ['no-store'] },
    };
    Object.assign(headers, rateLimitHeaders(success && on.keyed));
  }
  Object.assign(headers, statusHeaders(status));
  if (on.idempotent && (success || REPLAYABLE_ERRORS.includes(status))) {
    headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
  }
  response.headers = { ...headers, ...response.headers };

  if (status >= 400) {
    // Contract §1: every error the service emits is the error envelope.
    const media = response.content?.['application/json'];
    const example = media?.example as unknown;
    // A route a browser reads (the public verification) also answers a page: kept as declared.
    const pages = Object.entries(response.content ?? {}).filter(([t]) => t === 'text/html');
    response.content = {
      'application/json': {
        schema: { $ref: ERROR_ENVELOPE_REF },
        ...(example === undefined ? {} : { example }),
        ...(media?.examples === undefined ? {} : { examples: media.examples }),
      },
      ...Object.fromEntries(pages),
    };
  }
  if (!response.description) {
    const reason = STATUS_CODES[status] ?? 'Answer';
    response.description = success
      ? `${reason}: the success envelope \`{"success": true, "data": …}\``
      : reason;
  }
}

/** A standard answer no operation refers to any more (Forbidden: each names its scope) goes. */
function dropUnusedResponses(doc: OpenAPIObject): void {
  const responses = doc.components?.responses ?? {};
  const text = JSON.stringify({ ...doc, components: { ...doc.components, responses: {} } });
  for (const name of Object.keys(responses)) {
    if (!text.includes(`"#/components/responses/${name}"`)) delete responses[name];
  }
}

/** The catalogue's discount member is named after the deployment's insurer (INSURER_NAME). */
function nameInsurerMember(doc: OpenAPIObject, insurer: string): void {
  const schema = doc.components?.schemas?.MedicamentoDto as SchemaObject | undefined;
  if (!schema?.properties || !('pami_descuento' in schema.properties)) return;
  const name = `${insurer}_descuento`;
  schema.properties = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => [k === 'pami_descuento' ? name : k, v]),
  );
  schema.required = schema.required?.map((k) => (k === 'pami_descuento' ? name : k));
}
