import type { ExampleObject, MediaTypeObject, ReferenceObject } from '@nestjs/swagger';
import { errorCodes, statusOf } from '../common/errors/error-codes.js';
import type { ErrorCode } from '../common/errors/error-codes.js';
import { defaultErrorExample, REQUEST_ID_EXAMPLE, type ErrorExample } from './error-examples.js';

/**
 * From the examples (error-examples.ts, the data) to what a response shows: which codes its
 * description names, which examples those are, and the media type's example(s).
 */

/** The answer's body for an example: the error envelope of contract §1. */
export const errorEnvelope = (e: ErrorExample) => ({
  success: false,
  error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
  request_id: REQUEST_ID_EXAMPLE,
});

/**
 * The error codes a response description names, in order, that answer `status` (words such as
 * DISPENSA_RESERVA_MINUTOS are not codes; a code of another status is another response's).
 */
export function codesNamedIn(description: string, status: number): ErrorCode[] {
  const known = new Set(errorCodes());
  const named = description.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{4,}\b/g) ?? [];
  return [...new Set(named)].filter((w): w is ErrorCode => known.has(w) && statusOf(w) === status);
}

/**
 * The examples of a response answering `status` with `description`: for each code it names, the
 * operation's own examples of that code, else the code's default; then the operation's examples
 * of codes the description does not name (which the e2e suite reports).
 */
export function examplesFor(
  status: number,
  description: string,
  own: ErrorExample[] = [],
): ErrorExample[] {
  const mine = own.filter((e) => statusOf(e.code) === status);
  const named = codesNamedIn(description, status);
  return [
    ...named.flatMap((code) => {
      const specific = mine.filter((e) => e.code === code);
      const fallback = defaultErrorExample(code);
      return specific.length > 0 ? specific : fallback ? [fallback] : [];
    }),
    ...mine.filter((e) => !named.includes(e.code)),
  ];
}

/** A media type's example(s): `example` for one, `examples` keyed by name for several. */
export function exampleMedia(list: ErrorExample[]): Pick<MediaTypeObject, 'example' | 'examples'> {
  if (list.length === 0) return {};
  if (list.length === 1) return { example: errorEnvelope(list[0]) };
  const examples: Record<string, ExampleObject | ReferenceObject> = {};
  for (const e of list) {
    examples[e.name ?? e.code] = {
      ...(e.summary ? { summary: e.summary } : {}),
      value: errorEnvelope(e),
    };
  }
  return { examples };
}
