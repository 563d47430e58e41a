import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { DateRangePageQuery } from '../../../common/validation/date-range-page.query.js';
import {
  DNI,
  DNI_PATTERN,
  MATRICULA,
  MATRICULA_PATTERN,
} from '../../../common/validation/patterns.js';

/**
 * A listing of prescriptions over a date range, paged, by the prescriber's licence and the
 * patient's document: what the owner's listing and the health authority's share.
 */
export class RecetaFiltrosQuery extends DateRangePageQuery {
  @ApiPropertyOptional({
    description: 'Exact licence number',
    example: '123456',
    pattern: MATRICULA_PATTERN,
    maxLength: 20,
  })
  @IsOptional()
  @Matches(MATRICULA, { message: 'must be 1 to 20 letters or digits' })
  matricula?: string;

  @ApiPropertyOptional({
    description: 'Exact patient DNI (7–8 digits, no dots)',
    example: '30111222',
    pattern: DNI_PATTERN,
    maxLength: 8,
  })
  @IsOptional()
  @Matches(DNI, { message: 'must be 7 or 8 digits' })
  documento?: string;
}
