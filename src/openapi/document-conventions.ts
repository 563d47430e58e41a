import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { API_KEY_SCHEME, API_SECRET_SCHEME, CITIZEN_TOKEN_SCHEME } from '../common/http/access.js';
import {
  composeExample,
  EXAMPLES_BY_PROPERTY,
  REQUEST_EXAMPLES,
  SUCCESS_EXAMPLES,
} from './examples.js';
import { addErrorExamples } from './error-responses.js';
import { operationIdFor } from './operation-ids.js';
import { addOperationsRoutes } from './operations-routes.js';
import { usedTags } from './tags.js';
import { ID_TRANSACCION_PATTERN, UUID_PATTERN } from '../common/validation/patterns.js';
import { closeRequestBodies, restrictText } from './request-schemas.js';
import {
  ANY_ROUTE_STATUSES,
  ERROR_ENVELOPE,
  EVERY_ANSWER_HEADERS,
  HEADERS,
  headerRef,
  rateLimitHeaders,
  responseNameFor,
  responseRef,
  STANDARD_RESPONSES,
} from './standard-responses.js';

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

/**
 * Path parameters by name: what the server accepts (a value outside answers 400 or 404). A
 * route that declares its parameter's own pattern (`{cuir}`: the cuir module's) keeps it.
 */
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

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Method = (typeof METHODS)[number];
const BODY_METHODS = new Set<Method>(['post', 'put', 'patch']);
/** Statuses of the standard answers every operation lists (besides its own). */
const EVERY_OPERATION = [400, 404, 405, 408, 431, 500, 503];
const AUTHENTICATED = [401, 403, 429];
/** The citizen's routes take a token, not a client's keys: no scope, so no 403. */
const CITIZEN = [401, 429];
/**
 * Errors an idempotent operation stores and replays: those raised from validation on (not by
 * the middleware or the guards: 401, 403, 413, 415, 429), and never a 5xx.
 */
const REPLAYABLE_ERRORS = [400, 404, 409, 422];
const WITH_BODY = [413, 415];

const isRef = (x: object): x is ReferenceObject => '$ref' in x;
const isApi = (path: string) => path.startsWith('/v1/');
const toAscii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

export function completeDocument(doc: OpenAPIObject, settings: DocumentSettings): OpenAPIObject {
  addOperationsRoutes(doc);
  const components = (doc.components ??= {});
  components.headers = { ...components.headers, ...HEADERS };
  components.responses = {
    ...components.responses,
    ...Object.fromEntries(Object.entries(STANDARD_RESPONSES).map(([n, r]) => [n, r.response])),
  };
  // Both headers in one requirement object: together, not either.
  doc.security = [{ [API_KEY_SCHEME]: [], [API_SECRET_SCHEME]: [] }];
  doc.servers = [
    settings.publicBaseUrl
      ? {
          url: settings.publicBaseUrl,
          description: 'This deployment (production or staging: its PUBLIC_BASE_URL)',
        }
      : {
          url: '/',
          description:
            'This deployment, relative to where this document is served (local, test, staging or production)',
        },
  ].map((s) => ({ ...s, 'x-internal': false }));

  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) completeOperation(path, method, op);
    }
  }
  closeRequestBodies(doc);
  addExamples(doc);
  addErrorExamples(doc);
  nameInsurerMember(doc, settings.insurerName);
  doc.tags = usedTags(doc);
  (doc as unknown as Record<string, unknown>)['x-unmatched-route-responses'] = Object.fromEntries(
    ANY_ROUTE_STATUSES.map((s) => [String(s), responseRef(responseNameFor(s) as string)]),
  );
  return doc;
}

function completeOperation(path: string, method: Method, op: OperationObject): void {
  op.operationId = operationIdFor(method, path);
  op.tags = (op.tags ?? []).map(toAscii);
  const api = isApi(path);
  if (!api) op.security = [];
  // Rate-limit headers are always on the 2xx of API-key operations (the client's budget) and of
  // the citizen-token ones (the citizen's or the address's, whichever is nearer its end).
  const keyed =
    api &&
    (op.security ?? [{ [API_KEY_SCHEME]: [] }]).some(
      (r) => API_KEY_SCHEME in r || CITIZEN_TOKEN_SCHEME in r,
    );
  const citizen =
    op.security !== undefined &&
    op.security.length > 0 &&
    op.security.every((r) => Object.keys(r).join() === CITIZEN_TOKEN_SCHEME);
  const ext = op as OperationObject & { 'x-required-scope'?: string };
  const scope = ext['x-required-scope'];
  if (scope && !op.description?.includes('**Scope:**')) {
    op.description = [
      op.description,
      `**Scope:** \`${scope}\` (send X-API-Key and X-API-Secret of a client holding it; without it: 403).`,
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  for (const p of op.parameters ?? []) {
    if (isRef(p)) continue;
    completeParameter(p);
  }
  const idempotent = (op.parameters ?? []).some(
    (p) => !isRef(p) && p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
  );

  const standard = [
    ...EVERY_OPERATION,
    ...(api ? (citizen ? CITIZEN : AUTHENTICATED) : []),
    ...(BODY_METHODS.has(method) ? WITH_BODY : []),
  ];
  for (const status of standard) {
    op.responses[status] ??= responseRef(responseNameFor(status) as string);
  }
  // A stored validation failure is replayed too: the idempotent operation's 400 says so.
  if (idempotent && isRef(op.responses[400] ?? {})) {
    op.responses[400] = structuredClone(STANDARD_RESPONSES.BadRequest.response);
  }
  for (const [status, response] of Object.entries(op.responses)) {
    if (!response || isRef(response)) continue;
    completeResponse(Number(status), response, { api, keyed, idempotent });
  }
  op.responses = sortByStatus(op.responses);
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
  }
  if (on.api) Object.assign(headers, rateLimitHeaders(success && on.keyed));
  if (status === 429) headers['Retry-After'] = { ...HEADERS['Retry-After'], required: true };
  if (status === 503) headers['Retry-After'] = headerRef('Retry-After');
  if (status === 405) headers.Allow = headerRef('Allow');
  if (on.idempotent && (success || REPLAYABLE_ERRORS.includes(status))) {
    headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
  }
  response.headers = { ...headers, ...response.headers };

  if (status >= 400) {
    // Contract §1: every error the service emits is the error envelope (examples: error-responses.ts).
    const media = response.content?.['application/json'];
    const example = media?.example as unknown;
    // A route a browser reads (the public verification) also answers a page: kept as declared.
    const pages = Object.entries(response.content ?? {}).filter(([t]) => t === 'text/html');
    response.content = {
      'application/json': {
        schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE}` },
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

function sortByStatus<T>(responses: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** Request and success examples composed from the schemas (examples.ts). */
function addExamples(doc: OpenAPIObject): void {
  const lookup = (ref: string) =>
    doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] as SchemaObject | undefined;
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const body = op.requestBody;
      const media = body && !isRef(body) ? body.content['application/json'] : undefined;
      if (media && media.example === undefined && media.examples === undefined) {
        const example = composeExample(media.schema, lookup);
        const story = op.operationId ? REQUEST_EXAMPLES[op.operationId] : undefined;
        media.example = story && isObject(example) ? story(example) : example;
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response || isRef(response) || !status.startsWith('2')) continue;
        const json = response.content?.['application/json'];
        if (json?.schema && json.example === undefined && json.examples === undefined) {
          const example = composeExample(json.schema, lookup);
          const story = op.operationId ? SUCCESS_EXAMPLES[op.operationId] : undefined;
          if (story && isEnvelope(example)) example.data = story(example.data);
          if (example !== undefined) json.example = example;
        }
      }
    }
  }
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const isEnvelope = (x: unknown): x is { data: Record<string, unknown> } =>
  isObject(x) && isObject(x.data);

/**
 * The catalogue's discount member is named after the deployment's insurer (INSURER_NAME): the
 * served document names it as this deployment answers it.
 */
function nameInsurerMember(doc: OpenAPIObject, insurer: string): void {
  const schema = doc.components?.schemas?.MedicamentoDto as SchemaObject | undefined;
  if (!schema?.properties || !('pami_descuento' in schema.properties)) return;
  const name = `${insurer}_descuento`;
  schema.properties = Object.fromEntries(
    Object.entries(schema.properties).map(([k, v]) => [k === 'pami_descuento' ? name : k, v]),
  );
  schema.required = schema.required?.map((k) => (k === 'pami_descuento' ? name : k));
}
