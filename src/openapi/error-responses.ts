import type {
  OpenAPIObject,
  OperationObject,
  ReferenceObject,
  ResponseObject,
} from '@nestjs/swagger';
import { statusOf } from '../common/errors/error-codes.js';
import { exampleMedia, examplesFor } from './error-example-media.js';
import { type ErrorExample, OPERATION_ERROR_EXAMPLES } from './error-examples.js';
import { ERROR_ENVELOPE } from './standard-responses.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const isRef = (x: object): x is ReferenceObject => '$ref' in x;

/**
 * Every error answer of every operation shows an example of each code it names
 * (error-examples.ts). An operation's own answers get theirs; a standard answer (a $ref to
 * `#/components/responses/…`, which has its own examples) is copied in place only where the
 * operation answers one of its codes otherwise: its own message, or the scope it lacks (403).
 */
export function addErrorExamples(doc: OpenAPIObject): void {
  const components = doc.components?.responses ?? {};
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const own = [...(OPERATION_ERROR_EXAMPLES[op.operationId ?? ''] ?? []), ...lackedScope(op)];
      for (const [key, response] of Object.entries(op.responses)) {
        const status = Number(key);
        if (!(status >= 400) || !response) continue;
        const mine = own.filter((e) => statusOf(e.code) === status);
        if (isRef(response)) {
          if (mine.length === 0) continue;
          const standard = components[response.$ref.split('/').pop() as string];
          if (!standard || isRef(standard)) continue;
          const copy = structuredClone(standard);
          showExamples(copy, examplesFor(status, copy.description, mine));
          op.responses[key] = copy;
        } else {
          const list = examplesFor(status, response.description, mine);
          if (list.length > 0) showExamples(response, list);
        }
      }
    }
  }
  dropUnused(doc);
}

/** A standard answer every operation answers otherwise (Forbidden: each names its scope) goes. */
function dropUnused(doc: OpenAPIObject): void {
  const responses = doc.components?.responses;
  if (!responses) return;
  const text = JSON.stringify({ ...doc, components: { ...doc.components, responses: {} } });
  for (const name of Object.keys(responses)) {
    if (!text.includes(`"#/components/responses/${name}"`)) delete responses[name];
  }
}

/** The 403 an operation answers names the scope it requires. */
function lackedScope(op: OperationObject): ErrorExample[] {
  const scope = (op as { 'x-required-scope'?: string })['x-required-scope'];
  return scope ? [{ code: 'FORBIDDEN', message: `This client lacks the scope ${scope}` }] : [];
}

function showExamples(response: ResponseObject, list: ErrorExample[]): void {
  response.content = {
    ...response.content,
    'application/json': {
      schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE}` },
      ...exampleMedia(list),
    },
  };
}
