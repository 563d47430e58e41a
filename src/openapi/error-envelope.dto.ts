import { ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_NAMED_FIELDS } from '../common/validation/unknown-fields.js';

export class ErrorDetailDto {
  /** @example 'items[0].cantidad' */
  field: string;

  /** @example 'must be an integer from 1 to 999' */
  issue: string;
}

export class ErrorBodyDto {
  /** @example 'VALIDATION_FAILED' */
  // The enum of every module's codes is filled in when the document is built (setup-openapi.ts).
  code: string;

  /** @example 'Request validation failed' */
  message: string;

  @ApiPropertyOptional({
    type: [ErrorDetailDto],
    // Past MAX_NAMED_FIELDS problems, the last one counts the rest (capDetails, unknownFields).
    maxItems: MAX_NAMED_FIELDS + 1,
    description: `Present when particular fields are at fault (validation errors, unknown fields, and a few domain errors: ITEM_YA_DISPENSADO, CANTIDAD_EXCEDIDA…): at most ${MAX_NAMED_FIELDS} named, then one \`…\` counting the rest`,
  })
  details?: ErrorDetailDto[];
}

/** The error envelope of contract §1, returned for every error the service emits. */
export class ErrorEnvelopeDto {
  /** @example false */
  success: false;

  error: ErrorBodyDto;

  /** @example '3f1b1c9e-6a53-4d0e-9f0c-2b7d1a9e8c11' */
  request_id: string;
}
