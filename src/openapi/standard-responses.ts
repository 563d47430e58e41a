import type { HeaderObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { ERROR_EXAMPLES, exampleMedia, examplesFor } from './error-examples.js';

/** The response headers the service sends and the error answers any operation can give. */

type Headers = Record<string, HeaderObject | ReferenceObject>;
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
export const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorEnvelopeDto';

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

/** On every answer (X-Content-Type-Options required everywhere, Cache-Control on /v1). */
export const EVERY_ANSWER_HEADERS = ['X-Request-Id', 'X-Content-Type-Options', 'Cache-Control'];

/** An answer carrying rate-limit headers: required where they are always sent. */
export function rateLimitHeaders(required: boolean): Headers {
  return Object.fromEntries(
    ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) => [
      h,
      required ? { ...HEADERS[h], required: true } : headerRef(h),
    ]),
  );
}

/** The headers an answer of `status` adds: Retry-After on 429 (always) and 503, Allow on 405. */
export function statusHeaders(status: number): Headers {
  if (status === 429) return { 'Retry-After': { ...HEADERS['Retry-After'], required: true } };
  if (status === 503) return { 'Retry-After': headerRef('Retry-After') };
  return status === 405 ? { Allow: headerRef('Allow') } : {};
}

/** The reusable error answers by status: component name, and a description naming the codes shown. */
const STANDARD: Record<number, [string, string]> = {
  400: [
    'BadRequest',
    'VALIDATION_FAILED (a body naming a member twice in one object included), UNKNOWN_FIELD (a body field or query parameter this operation does not define) or MALFORMED_JSON; `details` names each failing field',
  ],
  401: [
    'Unauthenticated',
    'UNAUTHENTICATED: X-API-Key / X-API-Secret missing, unknown, wrong or revoked',
  ],
  403: ['Forbidden', "FORBIDDEN: the client lacks this operation's scope (x-required-scope)"],
  404: [
    'NotFound',
    "NOT_FOUND: no such route (also for an unknown path), or the resource the path names does not exist (on API-key routes: not for this client; another client's answers the same)",
  ],
  405: [
    'MethodNotAllowed',
    'METHOD_NOT_ALLOWED: the path exists under other methods, listed in Allow',
  ],
  408: [
    'RequestTimeout',
    'REQUEST_TIMEOUT: the request took too long to arrive (the connection is closed)',
  ],
  413: ['PayloadTooLarge', 'PAYLOAD_TOO_LARGE: the body is over 100 kB'],
  415: [
    'UnsupportedMediaType',
    'UNSUPPORTED_MEDIA_TYPE: the body is not sent as `Content-Type: application/json` (or its charset or encoding is not supported)',
  ],
  429: [
    'TooManyRequests',
    "RATE_LIMITED: over the client's requests per minute, or too many failed authentications from this address (patient routes: over the citizen's or the address's requests per minute); wait Retry-After seconds",
  ],
  431: [
    'HeadersTooLarge',
    'HEADERS_TOO_LARGE: the request headers are over the server limit (the connection is closed)',
  ],
  500: [
    'InternalError',
    'INTERNAL, or UPSTREAM_UNAVAILABLE when an external registry, the catalogue or the ministry failed or timed out; nothing of a failed write is kept, so a retry is safe',
  ],
  503: [
    'ServiceUnavailable',
    'SERVICE_UNAVAILABLE: this instance is not ready (e.g. its database does not answer), is shutting down, or is busy (no database connection came free within 5 s); retry, after Retry-After seconds when sent',
  ],
};

const RATE_LIMITED_CASES = [
  { ...ERROR_EXAMPLES.RATE_LIMITED, summary: "Over the client's requests per minute" },
  {
    code: 'RATE_LIMITED' as const,
    name: 'RATE_LIMITED_failed_authentications',
    message: 'Too many failed authentication attempts; retry later',
    summary: 'Too many failed authentications from this address with this key',
  },
];

export const responseNameFor = (status: number): string => STANDARD[status][0];

/** The standard answers by component name, each with an example of every code it names. */
export function standardResponses(): Record<string, ResponseObject> {
  return Object.fromEntries(
    Object.entries(STANDARD).map(([key, [name, description]]) => {
      const status = Number(key);
      const examples = examplesFor(status, description, status === 429 ? RATE_LIMITED_CASES : []);
      const headers = Object.fromEntries(EVERY_ANSWER_HEADERS.map((h) => [h, headerRef(h)]));
      return [
        name,
        {
          description,
          headers: { ...headers, ...rateLimitHeaders(false), ...statusHeaders(status) },
          content: {
            'application/json': { schema: { $ref: ERROR_ENVELOPE_REF }, ...exampleMedia(examples) },
          },
        },
      ];
    }),
  );
}

/** Answers any request can get, whatever its route: also what an unknown route answers. */
export const ANY_ROUTE_STATUSES = [400, 404, 405, 408, 413, 415, 431, 500, 503];
