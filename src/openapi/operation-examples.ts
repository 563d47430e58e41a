import type { ComponentsObject, OperationObject, SchemaObject } from '@nestjs/swagger';
import { statusOf } from '../common/errors/error-codes.js';
import { composeExample, REQUEST_EXAMPLES, SUCCESS_EXAMPLES } from './examples.js';
import { type ErrorExample, exampleMedia, examplesFor } from './error-examples.js';
import { OPERATION_ERROR_EXAMPLES } from './operation-error-examples.js';
import { isRef } from './request-schemas.js';
import { ERROR_ENVELOPE_REF } from './standard-responses.js';

/** The scope an operation requires (set by the access decorators), if any. */
export const scopeOf = (op: OperationObject) =>
  (op as { 'x-required-scope'?: string })['x-required-scope'];

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Request and success examples composed from the schemas (examples.ts). */
export function addExamples(
  op: OperationObject,
  lookup: (ref: string) => SchemaObject | undefined,
) {
  const body = op.requestBody;
  const media = body && !isRef(body) ? body.content['application/json'] : undefined;
  if (media && media.example === undefined && media.examples === undefined) {
    const example = composeExample(media.schema, lookup);
    const story = REQUEST_EXAMPLES[op.operationId ?? ''];
    media.example = story && isObject(example) ? story(example) : example;
  }
  for (const [status, response] of Object.entries(op.responses)) {
    if (!response || isRef(response) || !status.startsWith('2')) continue;
    const json = response.content?.['application/json'];
    if (json?.schema && json.example === undefined && json.examples === undefined) {
      const example = composeExample(json.schema, lookup);
      const story = SUCCESS_EXAMPLES[op.operationId ?? ''];
      if (story && isObject(example) && isObject(example.data)) example.data = story(example.data);
      if (example !== undefined) json.example = example;
    }
  }
}

/**
 * Every error answer shows an example of each code it names (error-examples.ts). A standard
 * answer (a $ref, with its own examples) is copied in place only where the operation answers
 * one of its codes otherwise: its own message, or the scope it lacks (403).
 */
export function addErrorExamples(op: OperationObject, standard: ComponentsObject['responses']) {
  const scope = scopeOf(op);
  const own: ErrorExample[] = [
    ...(OPERATION_ERROR_EXAMPLES[op.operationId ?? ''] ?? []),
    ...(scope
      ? [{ code: 'FORBIDDEN' as const, message: `This client lacks the scope ${scope}` }]
      : []),
  ];
  for (const [key, response] of Object.entries(op.responses)) {
    const status = Number(key);
    if (!(status >= 400) || !response) continue;
    const mine = own.filter((e) => statusOf(e.code) === status);
    const component = isRef(response) ? standard?.[response.$ref.split('/').pop() ?? ''] : response;
    if (!component || isRef(component) || (isRef(response) && mine.length === 0)) continue;
    const target = isRef(response) ? (op.responses[key] = structuredClone(component)) : component;
    const list = examplesFor(status, target.description, mine);
    if (list.length === 0) continue;
    target.content = {
      ...target.content,
      'application/json': { schema: { $ref: ERROR_ENVELOPE_REF }, ...exampleMedia(list) },
    };
  }
}
