import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';

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

/**
 * The error envelope for each listed status, described for this operation. The standard
 * answers every route can give (400, 401, 403, 404, 405, 408, 429, 431, 500, 503, and 413/415
 * with a body) are added by the document's conventions (document-conventions.ts).
 */
export function ApiErrors(extra: Partial<Record<number, string>> = {}) {
  return applyDecorators(
    ...Object.entries(extra).map(([status, description]) =>
      ApiResponse({ status: Number(status), description, type: ErrorEnvelopeDto }),
    ),
  );
}
