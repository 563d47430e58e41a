import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { TEXT_PATTERN } from '../common/validation/patterns.js';

/**
 * Request bodies say what the validation pipe enforces on every route: unknown fields are
 * refused (`additionalProperties: false`) and text may not hold control characters
 * (request-text.ts). A component used by requests and responses alike is split: requests get a
 * closed copy named `<Name>Input`, so answers stay open to new members.
 */

type Schema = SchemaObject | ReferenceObject;
const SCHEMA_PREFIX = '#/components/schemas/';
export const isRef = (s: object): s is ReferenceObject => '$ref' in s;
const nameOf = (ref: string) =>
  ref.startsWith(SCHEMA_PREFIX) ? ref.slice(SCHEMA_PREFIX.length) : undefined;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of the document, with its path and method. */
export const operations = (doc: OpenAPIObject) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ path, method, op }] : [];
    }),
  );

/** Every sub-schema of `schema`, itself included (not following $refs). */
function* subSchemas(schema: Schema | undefined): Generator<Schema> {
  if (!schema) return;
  yield schema;
  if (isRef(schema)) return;
  for (const s of Object.values(schema.properties ?? {})) yield* subSchemas(s);
  if (schema.items) yield* subSchemas(schema.items);
  if (typeof schema.additionalProperties === 'object')
    yield* subSchemas(schema.additionalProperties);
  for (const s of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    yield* subSchemas(s);
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

/** The schemas of the media types of `bodies` (request bodies or responses). */
const mediaSchemas = (bodies: Array<object | undefined>): Schema[] =>
  bodies.flatMap((b) =>
    b && !isRef(b)
      ? Object.values(
          (b as { content?: Record<string, { schema?: Schema }> }).content ?? {},
        ).flatMap((m) => m.schema ?? [])
      : [],
  );

/** Closes every object schema and restricts free text, in place, without following $refs. */
function closeInPlace(schema: Schema): void {
  for (const s of subSchemas(schema)) {
    if (isRef(s)) continue;
    if ((s.type === 'object' || s.properties) && s.additionalProperties === undefined) {
      s.additionalProperties = false;
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
  const ops = operations(doc).map((o) => o.op);
  const roots = mediaSchemas(ops.map((op) => op.requestBody));
  const inRequests = reachable(doc, roots);
  const inResponses = reachable(doc, [
    ...mediaSchemas(ops.flatMap((op) => Object.values(op.responses))),
    ...mediaSchemas(Object.values(doc.components?.responses ?? {})),
  ]);
  const renames = new Map<string, string>();
  for (const name of inRequests) {
    if (inResponses.has(name)) renames.set(name, `${name}Input`);
  }
  for (const [name, copy] of renames) schemas[copy] = structuredClone(schemas[name]);
  for (const root of roots) renameRefs(root, renames);
  for (const name of inRequests) {
    const target = renames.get(name) ?? name;
    renameRefs(schemas[target], renames);
    closeInPlace(schemas[target]);
  }
  for (const root of roots) closeInPlace(root);
}
