import type { ExampleObject, MediaTypeObject, ReferenceObject } from '@nestjs/swagger';
import type { ErrorExample } from '../common/errors/error-example.js';
import { type ErrorCode, errorCodes, statusOf } from '../common/errors/error-codes.js';
import { registeredSlices } from '../common/module-slice.js';
import { EXAMPLE_IDS } from './examples.js';

export type { ErrorExample } from '../common/errors/error-example.js';

export const REQUEST_ID_EXAMPLE = '3f1b1c9e-6a53-4d0e-9f0c-2b7d1a9e8c11';

const { vigencia } = EXAMPLE_IDS;

/**
 * Each common code's default example, with the message and `details` its throw site produces
 * (copied from there): the document cannot name a code without showing it, and the e2e suite
 * checks every example against the schema. A module's own codes carry theirs in its slice.
 */
export const ERROR_EXAMPLES: Record<string, ErrorExample> = Object.fromEntries(
  Object.entries({
    VALIDATION_FAILED: {
      message: 'Request validation failed',
      details: [{ field: 'items[0].cantidad', issue: 'must be an integer from 1 to 999' }],
    },
    UNKNOWN_FIELD: {
      message: 'Unknown field: observaciones',
      details: [{ field: 'observaciones', issue: 'is not a known field' }],
    },
    MALFORMED_JSON: { message: 'Request body is not valid JSON' },
    INVALID_DATE_RANGE: {
      message: 'fecha_desde is after fecha_hasta',
      details: [{ field: 'fecha_desde', issue: 'must not be after fecha_hasta' }],
    },
    UNAUTHENTICATED: { message: 'Missing or invalid X-API-Key / X-API-Secret' },
    FORBIDDEN: { message: 'This client lacks the scope recetas:read' },
    NOT_FOUND: { message: 'Resource not found' },
    METHOD_NOT_ALLOWED: { message: 'Method PUT not allowed on this path' },
    REQUEST_TIMEOUT: { message: 'The request took too long to arrive' },
    IDEMPOTENCY_KEY_REUSED: { message: 'This Idempotency-Key was used with a different request' },
    IDEMPOTENCY_KEY_IN_PROGRESS: {
      message: 'A request with this Idempotency-Key is still being processed; retry later',
    },
    PAYLOAD_TOO_LARGE: { message: 'Request body exceeds 100 kB' },
    UNSUPPORTED_MEDIA_TYPE: { message: 'Content-Type must be application/json' },
    HEADERS_TOO_LARGE: { message: 'Request headers are too large' },
    RATE_LIMITED: { message: 'Rate limit of 600 requests per minute exceeded' },
    UPSTREAM_UNAVAILABLE: { message: 'The refeps service is unavailable, try again later' },
    INTERNAL: { message: 'Internal server error' },
    SERVICE_UNAVAILABLE: { message: 'Service not ready' },
    CUIR_ALREADY_ISSUED: { message: 'A CUIR was already issued for this groupId and itemId' },
    CUIR_RULES_VIOLATED: {
      message: 'Type and subtype are incompatible under the local rules',
      details: [
        {
          field: 'medicationType',
          issue: "subtype '00' is not valid for prescription type '01' (expected 01, 02, 03 or 04)",
        },
      ],
    },
    CUIR_NOT_OWNED: {
      message: 'The CUIR was not issued to this client',
      details: [{ field: 'cuir', issue: 'was not issued to this client by POST /v1/cuir/generar' }],
    },
    CUIR_ALREADY_REGISTERED: { message: 'This CUIR is already registered' },
    PROFESSIONAL_NOT_ENABLED: {
      message: 'Licence 123456 is not enabled in jurisdiction 02',
      details: [
        { field: 'matricula_profesional', issue: 'is not enabled in REFEPS for jurisdiction 02' },
      ],
    },
    RECETA_ANULADA: { message: 'The prescription was cancelled by its prescriber' },
    RECETA_DISPENSADA: { message: 'Every item of the prescription was dispensed' },
    RECETA_RESERVADA: {
      message:
        'Another dispenser holds a reservation on this prescription until 2026-11-23T13:30:00.000Z',
      details: [{ field: 'vence_at', issue: '2026-11-23T13:30:00.000Z' }],
    },
    RESERVA_REITERADA: {
      message:
        'Your reservation of this prescription ended; another dispenser gets its turn: you may reserve it again from 2026-11-23T13:40:00.000Z (dispensing needs no reservation)',
      details: [{ field: 'reservable_desde', issue: '2026-11-23T13:40:00.000Z' }],
    },
    ITEM_YA_DISPENSADO: {
      message: 'Already dispensed: item 1; nothing was dispensed',
      details: [{ field: 'items[0].item', issue: 'item 1 was dispensed already' }],
    },
    REVERSION_VENCIDA: {
      message: 'A dispensation can be reversed within 24 hours of being recorded',
    },
    RECETA_NO_VIGENTE: {
      message: `The prescription is valid from ${vigencia.desde} to ${vigencia.hasta} (Argentina time); not on 2026-12-22`,
    },
    CANTIDAD_EXCEDIDA: {
      message: 'More units than prescribed for an item; nothing was dispensed',
      details: [{ field: 'items[0].cantidad', issue: 'item 1 was prescribed 2 units at most' }],
    },
    MEDICAMENTO_DESCONOCIDO: {
      message:
        'Not in the medication catalogue: items[0].codigo (see GET /v1/medicamentos/buscar); nothing was written',
      details: [
        { field: 'items[0].codigo', issue: '1000123 is not a code of the medication catalogue' },
      ],
    },
    SUSTITUCION_NO_PERMITIDA: {
      message: 'The prescriber forbade substituting an item; nothing was dispensed',
      details: [
        {
          field: 'items[0].sustituido',
          issue: 'item 1 may not be substituted (the prescriber marked it sustituible: false)',
        },
      ],
    },
    SUSTITUCION_NO_DECLARADA: {
      message:
        'A code other than the prescribed one was dispensed without declaring a substitution; nothing was dispensed',
      details: [
        {
          field: 'items[0].codigo',
          issue:
            'item 1 was prescribed as 1336421: dispensing 2105825 is a substitution (send sustituido: true)',
        },
      ],
    },
  } satisfies Partial<Record<ErrorCode, Omit<ErrorExample, 'code'>>>).map(([code, e]) => [
    code,
    { code: code as ErrorCode, ...e },
  ]),
);

/** A code's default example: the one above, else the one its module's slice carries. */
export function defaultErrorExample(code: string): ErrorExample | undefined {
  return (
    ERROR_EXAMPLES[code] ??
    registeredSlices()
      .flatMap((s) => s.errorExamples ?? [])
      .find((e) => e.code === code)
  );
}

/** The answer's body for an example: the error envelope of contract §1. */
export const errorEnvelope = (e: ErrorExample) => ({
  success: false,
  error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
  request_id: REQUEST_ID_EXAMPLE,
});

/** The codes answering `status` a description names, in order (DISPENSA_RESERVA_MINUTOS is no code). */
function codesNamedIn(description: string, status: number): ErrorCode[] {
  const known = new Set(errorCodes());
  const named = description.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{4,}\b/g) ?? [];
  return [...new Set(named)].filter((w): w is ErrorCode => known.has(w) && statusOf(w) === status);
}

/**
 * A response's examples: for each code its description names, the operation's own examples of
 * it, else its default; then the operation's examples of codes not named (the e2e suite reports those).
 */
export function examplesFor(status: number, description: string, own: ErrorExample[] = []) {
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
