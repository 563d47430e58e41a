import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { TEXT_PATTERN } from '../common/validation/patterns.js';

/**
 * Request bodies say what the validation pipe enforces on every route: unknown fields are
 * refused (`additionalProperties: false`) and text may not hold control
 * characters (request-text.ts). A component used by
 * requests and responses alike is split: requests get a closed copy named `<Name>Input`, so
 * answers stay open to new members.
 */

type Schema = SchemaObject | ReferenceObject;
const SCHEMA_PREFIX = '#/components/schemas/';
const isRef = (s: object): s is ReferenceObject => '$ref' in s;
const nameOf = (ref: string) =>
  ref.startsWith(SCHEMA_PREFIX) ? ref.slice(SCHEMA_PREFIX.length) : undefined;

/** Every sub-schema of `schema`, itself included (not following $refs). */
function* subSchemas(schema: Schema | undefined): Generator<Schema> {
  if (!schema) return;
  yield schema;
  if (isRef(schema)) return;
  for (const s of Object.values(schema.properties ?? {})) yield* subSchemas(s);
  if (schema.items) yield* subSchemas(schema.items);
  if (typeof schema.additionalProperties === 'object')
    yield* subSchemas(schema.additionalProperties);
  for (const list of [schema.allOf, schema.anyOf, schema.oneOf]) {
    for (const s of list ?? []) yield* subSchemas(s);
  }
  if (schema.not) yield* subSchemas(schema.not);
}

/** Names of the components reachable from `roots`. */
function reachable(doc: OpenAPIObject, roots: Schema[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    for (const s of subSchemas(queue.pop())) {
      const name = isRef(s) ? nameOf(s.$ref) : undefined;
      if (name && !seen.has(name) && doc.components?.schemas?.[name]) {
        seen.add(name);
        queue.push(doc.components.schemas[name]);
      }
    }
  }
  return seen;
}

function operations(doc: OpenAPIObject) {
  return Object.values(doc.paths).flatMap((item) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((m) => item[m] ?? []),
  );
}

function requestRoots(doc: OpenAPIObject): Schema[] {
  return operations(doc).flatMap((op) => {
    const body = op.requestBody;
    if (!body || isRef(body)) return [];
    return Object.values(body.content).flatMap((media) => media.schema ?? []);
  });
}

function responseRoots(doc: OpenAPIObject): Schema[] {
  const fromOps = operations(doc).flatMap((op) =>
    Object.values(op.responses).flatMap((r) =>
      r && !isRef(r) ? Object.values(r.content ?? {}).flatMap((m) => m.schema ?? []) : [],
    ),
  );
  const fromComponents = Object.values(doc.components?.responses ?? {}).flatMap((r) =>
    isRef(r) ? [] : Object.values(r.content ?? {}).flatMap((m) => m.schema ?? []),
  );
  return [...fromOps, ...fromComponents];
}

/** Closes every object schema and restricts free text, in place, without following $refs. */
function closeInPlace(schema: Schema): void {
  for (const s of subSchemas(schema)) {
    if (isRef(s)) continue;
    if (s.type === 'object' || s.properties) {
      if (s.additionalProperties === undefined) s.additionalProperties = false;
    }
    if (s.type === 'string') restrictText(s);
  }
}

/** A request string without a pattern, format or enum of its own gets the text pattern (no controls). */
export function restrictText(s: SchemaObject): void {
  if (s.pattern === undefined && s.format === undefined && s.enum === undefined) {
    s.pattern = TEXT_PATTERN;
  }
}

/** Rewrites $refs to the names in `renames`, in place. */
function renameRefs(schema: Schema, renames: Map<string, string>): void {
  for (const s of subSchemas(schema)) {
    const name = isRef(s) ? nameOf(s.$ref) : undefined;
    if (name && renames.has(name)) (s as ReferenceObject).$ref = SCHEMA_PREFIX + renames.get(name);
  }
}

/** Closes every schema a request body reaches; see the file comment. */
export function closeRequestBodies(doc: OpenAPIObject): void {
  const schemas = doc.components?.schemas;
  if (!schemas) return;
  const requestRootsList = requestRoots(doc);
  const inRequests = reachable(doc, requestRootsList);
  const inResponses = reachable(doc, responseRoots(doc));
  const renames = new Map<string, string>();
  for (const name of inRequests) {
    if (inResponses.has(name)) renames.set(name, `${name}Input`);
  }
  for (const [name, copy] of renames) {
    schemas[copy] = structuredClone(schemas[name]);
  }
  for (const root of requestRootsList) renameRefs(root, renames);
  for (const name of inRequests) {
    const target = renames.get(name) ?? name;
    renameRefs(schemas[target], renames);
    closeInPlace(schemas[target]);
  }
  for (const root of requestRootsList) closeInPlace(root);
}
