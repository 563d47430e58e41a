import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Checks one HTTP exchange against an OpenAPI 3.0 document: the status is documented for the
 * operation (or, for a path or method the document lacks, among `x-unmatched-route-responses`),
 * the body matches the documented schema for its media type, and the documented required
 * headers are present with valid values. Answers are checked strictly: an object member the
 * schema does not name is a failure (the document must name every member the service sends).
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI documents are untyped JSON */
type Json = any;

export interface Exchange {
  method: string;
  /** Absolute URL or path with query. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, when the answer is JSON. */
  body: unknown;
  /** Raw body text (for non-JSON answers and for an empty body). */
  text: string;
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  op: Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

export class OpenApiContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    addFormats.default(this.ajv);
    const definitions: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      definitions[name] = toJsonSchema(schema, true);
    }
    this.ajv.addSchema({ $id: 'components', definitions });
    for (const [template, item] of Object.entries<Json>(doc.paths ?? {})) {
      for (const method of METHODS) {
        if (!item[method]) continue;
        const segments = template.split('/');
        this.operations.push({
          method: method.toUpperCase(),
          template,
          pattern: templatePattern(template),
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
          op: item[method],
        });
      }
    }
    // Express tries routes in registration order, and a literal segment is what it matches
    // first in this service's routes (`/v1/recetas/listar` before `/v1/recetas/{id}`).
    this.operations.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** A readable description of every way the exchange breaks the contract, or undefined. */
  check(ex: Exchange): string | undefined {
    const path = pathOf(ex.url);
    const method = ex.method.toUpperCase() === 'HEAD' ? 'GET' : ex.method.toUpperCase();
    const found = this.operations.find((o) => o.method === method && o.pattern.test(path));
    const where = found
      ? `${ex.method.toUpperCase()} ${found.template} (${found.op.operationId})`
      : `${ex.method.toUpperCase()} ${path} (no documented operation)`;
    const responses: Json = found ? found.op.responses : this.doc['x-unmatched-route-responses'];
    const documented = responses?.[String(ex.status)] ?? responses?.[`${String(ex.status)[0]}XX`];
    const response = documented ?? responses?.default;
    if (!response) {
      return `${where} answered ${ex.status}, which is not documented (documented: ${Object.keys(
        responses ?? {},
      ).join(', ')})${describeBody(ex)}`;
    }
    const problems = [
      ...this.checkHeaders(this.resolve(response), ex),
      ...this.checkBody(this.resolve(response), ex, `${where}:${ex.status}`),
    ];
    return problems.length
      ? `${where} answered ${ex.status}:\n  ${problems.join('\n  ')}${describeBody(ex)}`
      : undefined;
  }

  private resolve(x: Json): Json {
    let out = x;
    for (let i = 0; out?.$ref && i < 10; i++) {
      const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(out.$ref as string) ?? [];
      out = this.doc.components?.[kind]?.[name];
    }
    return out;
  }

  private checkHeaders(response: Json, ex: Exchange): string[] {
    const problems: string[] = [];
    for (const [name, declared] of Object.entries<Json>(response.headers ?? {})) {
      const header = this.resolve(declared);
      const raw = ex.headers[name.toLowerCase()];
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      if (value === undefined) {
        if (header.required) problems.push(`header ${name} is required and missing`);
        continue;
      }
      const schema = header.schema ?? {};
      const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      if (typeof typed === 'number' && (value.trim() === '' || Number.isNaN(typed))) {
        problems.push(`header ${name}: ${JSON.stringify(value)} is not a ${schema.type}`);
        continue;
      }
      const validate = this.validator(`header:${JSON.stringify(schema)}`, schema, false);
      if (!validate(typed)) problems.push(...messages(validate.errors, `header ${name}`));
    }
    return problems;
  }

  private checkBody(response: Json, ex: Exchange, key: string): string[] {
    const content: Record<string, Json> = response.content ?? {};
    const type = String(ex.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const empty = ex.text === '' && (ex.body === undefined || isEmptyObject(ex.body));
    if (Object.keys(content).length === 0) {
      return empty ? [] : [`a body (${type || 'no content type'}) where none is documented`];
    }
    if (empty && ex.method.toUpperCase() === 'HEAD') return [];
    const mediaType = Object.keys(content).find((m) => m.toLowerCase() === type);
    if (!mediaType) {
      return [
        `content type ${type || '(none)'} is not documented (${Object.keys(content).join(', ')})`,
      ];
    }
    const schema = content[mediaType].schema;
    if (!schema) return [];
    const value = type === 'application/json' ? ex.body : ex.text;
    const validate = this.validator(`${key}:${mediaType}`, schema, true);
    return validate(value) ? [] : messages(validate.errors, 'body');
  }

  private validator(key: string, schema: Json, strict: boolean): ValidateFunction {
    let v = this.validators.get(key);
    if (!v) {
      v = this.ajv.compile(toJsonSchema(schema, strict) as object);
      this.validators.set(key, v);
    }
    return v;
  }
}

/**
 * OpenAPI 3.0 schema → JSON Schema (draft-07) for ajv: `nullable` becomes a `null` type,
 * component references point into the `components` schema, and (when `strict`) an object
 * with named properties refuses unnamed ones.
 */
export function toJsonSchema(schema: Json, strict: boolean): Json {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, strict));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const ref = { $ref: schema.$ref.replace('#/components/schemas/', 'components#/definitions/') };
    return schema.nullable ? { anyOf: [ref, { type: 'null' }] } : ref;
  }
  const out: Json = {};
  for (const [k, v] of Object.entries<Json>(schema)) {
    if (k === 'example' || k === 'examples' || k === 'nullable' || k === 'xml') continue;
    if (k === 'properties' || k === 'patternProperties') {
      out[k] = Object.fromEntries(
        Object.entries<Json>(v).map(([name, s]) => [name, toJsonSchema(s, strict)]),
      );
    } else if (['items', 'additionalProperties', 'not'].includes(k) && typeof v === 'object') {
      out[k] = toJsonSchema(v, strict);
    } else if (['allOf', 'anyOf', 'oneOf'].includes(k)) {
      out[k] = toJsonSchema(v, strict);
    } else {
      out[k] = v;
    }
  }
  if (schema.nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  if (strict && out.properties && out.additionalProperties === undefined && !out.allOf) {
    out.additionalProperties = false;
  }
  return out;
}

function templatePattern(template: string): RegExp {
  const body = template
    .split('/')
    .map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // As Express routes: case-insensitive, an optional trailing slash.
  return new RegExp(`^${body}/?$`, 'i');
}

function pathOf(url: string): string {
  const noQuery = url.split(/[?#]/)[0];
  return /^[a-z]+:\/\//i.test(noQuery) ? noQuery.replace(/^[a-z]+:\/\/[^/]*/i, '') || '/' : noQuery;
}

const isEmptyObject = (x: unknown) =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && Object.keys(x).length === 0;

function messages(errors: ErrorObject[] | null | undefined, what: string): string[] {
  return (errors ?? []).slice(0, 8).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
        : e.keyword === 'enum'
          ? ` (${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)})`
          : '';
    return `${what}${e.instancePath || ''} ${e.message ?? e.keyword}${extra}`;
  });
}

function describeBody(ex: Exchange): string {
  const shown = ex.text.length > 400 ? `${ex.text.slice(0, 400)}…` : ex.text;
  return shown ? `\n  body: ${shown}` : '';
}
