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

/** An error answer's `error` member, as an example of one code of a status. */
export interface ErrorExample {
  code: string;
  message: string;
  details?: Array<{ field: string; issue: string }>;
}

/**
 * The error envelope for each listed status, described for this operation, with examples of
 * its codes by name when given (`{ description, examples }`). The standard answers every route
 * can give (400, 401, 403, 404, 405, 408, 429, 431, 500, 503, and 413/415 with a body) are
 * added by the document's conventions (document-conventions.ts).
 */
export function ApiErrors(
  extra: Partial<
    Record<number, string | { description: string; examples: Record<string, ErrorExample> }>
  > = {},
) {
  return applyDecorators(
    ...Object.entries(extra).map(([status, d]) =>
      typeof d === 'string' || d === undefined
        ? ApiResponse({ status: Number(status), description: d, type: ErrorEnvelopeDto })
        : ApiResponse({
            status: Number(status),
            description: d.description,
            type: ErrorEnvelopeDto,
            examples: Object.fromEntries(
              Object.entries(d.examples).map(([name, error]) => [
                name,
                {
                  summary: error.code,
                  value: {
                    success: false,
                    error,
                    request_id: '3f1b1c9e-6a53-4d0e-9f0c-2b7d1a9e8c11',
                  },
                },
              ]),
            ),
          }),
    ),
  );
}
