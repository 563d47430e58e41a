import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';
import { errorEnvelope, type ErrorExample } from './error-examples.js';

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
 * The error envelope for each listed status, described for this operation, with examples of
 * its codes by name when given. The standard answers every route can give are added by the
 * document's conventions (document-conventions.ts).
 */
export function ApiErrors(
  extra: Record<
    number,
    string | { description: string; examples: Record<string, ErrorExample> }
  > = {},
) {
  return applyDecorators(
    ...Object.entries(extra).map(([status, d]) =>
      ApiResponse({
        status: Number(status),
        type: ErrorEnvelopeDto,
        ...(typeof d === 'string'
          ? { description: d }
          : {
              description: d.description,
              examples: Object.fromEntries(
                Object.entries(d.examples).map(([name, e]) => [
                  name,
                  { summary: e.code, value: errorEnvelope(e) },
                ]),
              ),
            }),
      }),
    ),
  );
}
