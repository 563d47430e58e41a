import type { HeaderObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { exampleMedia } from './error-example-media.js';
import { ERROR_EXAMPLES, type ErrorExample } from './error-examples.js';

/**
 * The response headers the service sends and the error answers any operation can give,
 * as reusable components (`#/components/headers/…`, `#/components/responses/…`).
 */

const ref = (kind: 'headers' | 'responses' | 'schemas', name: string): ReferenceObject => ({
  $ref: `#/components/${kind}/${name}`,
});
export const headerRef = (name: string) => ref('headers', name);
export const responseRef = (name: string) => ref('responses', name);
export const ERROR_ENVELOPE = 'ErrorEnvelopeDto';

export const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description:
      "Every answer: the client's X-Request-Id when it sent a sane one (1–128 of A-Z a-z 0-9 . _ : -), else a new UUID. Quote it when reporting a problem.",
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$', maxLength: 128 },
  },
  'RateLimit-Limit': {
    description:
      "The caller's budget in requests per minute. API-key routes: the client's, across every /v1 endpoint (default 600), sent once the client is authenticated. Patient routes (/v1/paciente): the client address's (PACIENTE_POR_IP_POR_MINUTO, default 120, every attempt) or the citizen's (PACIENTE_POR_MINUTO, default 30, per token CUIL), whichever has fewer requests left.",
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647, example: 600 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current one-minute window (sent with RateLimit-Limit).',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647, example: 599 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends (sent with RateLimit-Limit).',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 60, example: 42 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400, example: 30 },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this answer is the stored answer of an earlier request with the same Idempotency-Key, path and body: same status, same body, nothing done again.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Cache-Control': {
    description:
      '`no-store` on every answer holding personal or prescription data: no cache, proxy or browser may keep it.',
    schema: { type: 'string', maxLength: 200, pattern: '^[ -~]*$', example: 'no-store' },
  },
  'X-Content-Type-Options': {
    description: '`nosniff`, on every answer: the declared Content-Type is authoritative.',
    schema: { type: 'string', enum: ['nosniff'] },
  },
  Allow: {
    description: 'The methods this path answers, e.g. `GET` or `POST`.',
    required: true,
    schema: { type: 'string', maxLength: 100, pattern: '^[A-Z]+(, ?[A-Z]+)*$', example: 'POST' },
  },
};

/**
 * Headers on every answer (X-Content-Type-Options required everywhere, Cache-Control on /v1:
 * see completeResponse); the contract check verifies required headers.
 */
export const EVERY_ANSWER_HEADERS = ['X-Request-Id', 'X-Content-Type-Options', 'Cache-Control'];
export const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** An answer carrying rate-limit headers: required where they are always sent. */
export function rateLimitHeaders(
  required: boolean,
): Record<string, HeaderObject | ReferenceObject> {
  return Object.fromEntries(
    RATE_LIMIT_HEADERS.map((h) => [h, required ? { ...HEADERS[h], required: true } : headerRef(h)]),
  );
}

const everyAnswer = () => Object.fromEntries(EVERY_ANSWER_HEADERS.map((h) => [h, headerRef(h)]));

/** An error answer showing an example of each code its description names. */
function errorResponse(
  description: string,
  examples: ErrorExample[],
  extraHeaders: Record<string, HeaderObject | ReferenceObject> = {},
): ResponseObject {
  return {
    description,
    headers: { ...everyAnswer(), ...rateLimitHeaders(false), ...extraHeaders },
    content: {
      'application/json': { schema: ref('schemas', ERROR_ENVELOPE), ...exampleMedia(examples) },
    },
  };
}

const E = ERROR_EXAMPLES;

/** Reusable error answers, by component name, with the status each stands for. */
export const STANDARD_RESPONSES: Record<string, { status: number; response: ResponseObject }> = {
  BadRequest: {
    status: 400,
    response: errorResponse(
      'VALIDATION_FAILED (a body naming a member twice in one object included), UNKNOWN_FIELD (a body field or query parameter this operation does not define) or MALFORMED_JSON; `details` names each failing field',
      [E.VALIDATION_FAILED, E.UNKNOWN_FIELD, E.MALFORMED_JSON],
    ),
  },
  Unauthenticated: {
    status: 401,
    response: errorResponse(
      'UNAUTHENTICATED: X-API-Key / X-API-Secret missing, unknown, wrong or revoked',
      [E.UNAUTHENTICATED],
    ),
  },
  Forbidden: {
    status: 403,
    response: errorResponse(
      "FORBIDDEN: the client lacks this operation's scope (x-required-scope)",
      [E.FORBIDDEN],
    ),
  },
  NotFound: {
    status: 404,
    response: errorResponse(
      "NOT_FOUND: no such route (also for an unknown path), or the resource the path names does not exist (on API-key routes: not for this client; another client's answers the same)",
      [E.NOT_FOUND],
    ),
  },
  MethodNotAllowed: {
    status: 405,
    response: errorResponse(
      'METHOD_NOT_ALLOWED: the path exists under other methods, listed in Allow',
      [E.METHOD_NOT_ALLOWED],
      { Allow: headerRef('Allow') },
    ),
  },
  RequestTimeout: {
    status: 408,
    response: errorResponse(
      'REQUEST_TIMEOUT: the request took too long to arrive (the connection is closed)',
      [E.REQUEST_TIMEOUT],
    ),
  },
  PayloadTooLarge: {
    status: 413,
    response: errorResponse('PAYLOAD_TOO_LARGE: the body is over 100 kB', [E.PAYLOAD_TOO_LARGE]),
  },
  UnsupportedMediaType: {
    status: 415,
    response: errorResponse(
      'UNSUPPORTED_MEDIA_TYPE: the body is not sent as `Content-Type: application/json` (or its charset or encoding is not supported)',
      [E.UNSUPPORTED_MEDIA_TYPE],
    ),
  },
  TooManyRequests: {
    status: 429,
    response: errorResponse(
      "RATE_LIMITED: over the client's requests per minute, or too many failed authentications from this address (patient routes: over the citizen's or the address's requests per minute); wait Retry-After seconds",
      [
        { ...E.RATE_LIMITED, summary: "Over the client's requests per minute" },
        {
          code: 'RATE_LIMITED',
          name: 'RATE_LIMITED_failed_authentications',
          message: 'Too many failed authentication attempts; retry later',
          summary: 'Too many failed authentications from this address with this key',
        },
      ],
      { 'Retry-After': { ...HEADERS['Retry-After'], required: true } },
    ),
  },
  HeadersTooLarge: {
    status: 431,
    response: errorResponse(
      'HEADERS_TOO_LARGE: the request headers are over the server limit (the connection is closed)',
      [E.HEADERS_TOO_LARGE],
    ),
  },
  InternalError: {
    status: 500,
    response: errorResponse(
      'INTERNAL, or UPSTREAM_UNAVAILABLE when an external registry, the catalogue or the ministry failed or timed out; nothing of a failed write is kept, so a retry is safe',
      [E.INTERNAL, E.UPSTREAM_UNAVAILABLE],
    ),
  },
  ServiceUnavailable: {
    status: 503,
    response: errorResponse(
      'SERVICE_UNAVAILABLE: this instance is not ready (e.g. its database does not answer), is shutting down, or is busy (no database connection came free within 5 s); retry, after Retry-After seconds when sent',
      [E.SERVICE_UNAVAILABLE],
      { 'Retry-After': headerRef('Retry-After') },
    ),
  },
};

export const responseNameFor = (status: number): string | undefined =>
  Object.entries(STANDARD_RESPONSES).find(([, r]) => r.status === status)?.[0];

/** Answers any request can get, whatever its route: also what an unknown route answers. */
export const ANY_ROUTE_STATUSES = [400, 404, 405, 408, 413, 415, 431, 500, 503];
