import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiExtension,
  ApiExtraModels,
  ApiResponse,
  ApiSecurity,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Scope } from '../auth/scopes.js';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';
import { API_KEY_SCHEME, API_SECRET_SCHEME } from './setup-openapi.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Validation failed (VALIDATION_FAILED, UNKNOWN_FIELD, MALFORMED_JSON…)',
  401: 'UNAUTHENTICATED: X-API-Key / X-API-Secret missing, unknown, wrong or revoked',
  403: 'FORBIDDEN: the client lacks the scope',
  404: 'NOT_FOUND',
  409: 'Conflict',
  413: 'PAYLOAD_TOO_LARGE: body over 100 kB',
  415: 'UNSUPPORTED_MEDIA_TYPE: body is not application/json',
  422: 'Semantic rule violated',
  429: 'RATE_LIMITED: see Retry-After',
  500: 'INTERNAL or UPSTREAM_UNAVAILABLE',
};

/** A success answer in the envelope: `{ success: true, data: <model> }`. */
export function ApiEnveloped(status: number, model: Type<unknown>, description?: string) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description,
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: {
          success: { type: 'boolean', example: true },
          data: { $ref: getSchemaPath(model) },
        },
      },
    }),
  );
}

/** The error envelope for each listed status, with the standard ones every /v1 route can give. */
export function ApiErrors(extra: Partial<Record<number, string>> = {}) {
  const statuses = { ...pick(400, 401, 403, 429, 500), ...extra };
  return applyDecorators(
    ...Object.entries(statuses).map(([status, description]) =>
      ApiResponse({ status: Number(status), description, type: ErrorEnvelopeDto }),
    ),
  );
}

/** The two-header security requirement and the scope the route needs (also in the summary). */
export function ApiScope(scope: Scope) {
  // One requirement object = both headers together (two separate ones would mean "either").
  return applyDecorators(
    ApiSecurity({ [API_KEY_SCHEME]: [scope], [API_SECRET_SCHEME]: [scope] }),
    ApiExtension('x-required-scope', scope),
  );
}

function pick(...statuses: number[]): Record<number, string> {
  return Object.fromEntries(statuses.map((s) => [s, ERROR_DESCRIPTIONS[s]]));
}
