import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, Max, Min, type ValidationArguments } from 'class-validator';
import { DomainError } from '../errors/domain-error.js';
import {
  DATE_RANGE_TEXT,
  DecimalInt,
  IsIsoDateTimeWithOffset,
  parseIsoWithOffset,
  plusReadAsSpace,
} from './validators.js';

/** A bad date answers INVALID_DATE_RANGE (contract §3), not the generic VALIDATION_FAILED. */
const dateRange = { context: { code: 'INVALID_DATE_RANGE' } };
const plainDateMessage = `must be an ISO 8601 date-time with offset, ${DATE_RANGE_TEXT}`;
/** The plain rule, or, when the offset's "+" came unencoded (read as a space), how to send it. */
const dateMessage = ({ value }: ValidationArguments): string =>
  plusReadAsSpace(value)
    ? `${plainDateMessage}; a "+" in a query string reads as a space: write the offset's + as %2B (+00:00 as %2B00:00), or use Z`
    : plainDateMessage;
const PLUS_IN_QUERY = 'a "+" offset is sent as %2B (a bare + reads as a space), or use Z';
const pageMessage = 'must be an integer ≥ 1 and ≤ 1000000';
const perPageMessage = 'must be an integer from 1 to 200';

/** The 400 of an operation taking this query (its OpenAPI description): the date range's own code. */
export const DATE_RANGE_QUERY_ERRORS =
  'VALIDATION_FAILED (a parameter of the wrong type or range), UNKNOWN_FIELD (a query parameter this operation does not define) or INVALID_DATE_RANGE (fecha_desde or fecha_hasta missing, not an ISO 8601 date-time with offset, or fecha_desde after fecha_hasta); `details` names each failing parameter';

/** The query of a listing over an inclusive date range, paged (per_page ≤ 200, default 50). */
export class DateRangePageQuery {
  /** @example '2026-11-01T00:00:00-03:00' */
  @ApiProperty({
    description: `Start of the range (inclusive), ISO 8601 date-time with offset, written ${DATE_RANGE_TEXT}; ${PLUS_IN_QUERY}`,
    format: 'date-time',
  })
  @IsDefined({ message: 'is required', ...dateRange })
  @IsIsoDateTimeWithOffset({ message: dateMessage, ...dateRange })
  fecha_desde: string;

  /** @example '2026-11-30T23:59:59-03:00' */
  @ApiProperty({
    description: `End of the range (inclusive), ISO 8601 date-time with offset, written ${DATE_RANGE_TEXT}; not before fecha_desde; ${PLUS_IN_QUERY}`,
    format: 'date-time',
  })
  @IsDefined({ message: 'is required', ...dateRange })
  @IsIsoDateTimeWithOffset({ message: dateMessage, ...dateRange })
  fecha_hasta: string;

  /**
   * The page to answer, from 1 (default 1), of `per_page` items in the listing order; past the last page, an empty `items`
   */
  @ApiPropertyOptional({ default: 1, type: 'integer', format: 'int32' })
  @IsOptional()
  @DecimalInt()
  @IsInt({ message: pageMessage })
  @Min(1, { message: pageMessage })
  @Max(1_000_000, { message: pageMessage })
  page?: number;

  /** Items per page, 1 to 200 (default 50) */
  @ApiPropertyOptional({ default: 50, type: 'integer', format: 'int32' })
  @IsOptional()
  @DecimalInt()
  @IsInt({ message: perPageMessage })
  @Min(1, { message: perPageMessage })
  @Max(200, { message: perPageMessage })
  per_page?: number;
}

/** The validated query as values; an inverted range is INVALID_DATE_RANGE. */
export function dateRangePage(q: DateRangePageQuery) {
  const desde = parseIsoWithOffset(q.fecha_desde) as Date;
  const hasta = parseIsoWithOffset(q.fecha_hasta) as Date;
  if (desde > hasta) {
    throw new DomainError('INVALID_DATE_RANGE', 'fecha_desde is after fecha_hasta', [
      { field: 'fecha_desde', issue: 'must not be after fecha_hasta' },
    ]);
  }
  const page = q.page ?? 1;
  const perPage = q.per_page ?? 50;
  return { desde, hasta, page, perPage, limit: perPage, offset: (page - 1) * perPage };
}
