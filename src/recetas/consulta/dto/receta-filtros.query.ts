import { IsOptional, Matches } from 'class-validator';
import { DateRangePageQuery } from '../../../common/validation/date-range-page.query.js';
import { DNI, MATRICULA } from '../../../common/validation/patterns.js';

/**
 * A listing of prescriptions over a date range, paged, by the prescriber's licence and the
 * patient's document: what the owner's listing and the health authority's share.
 */
export class RecetaFiltrosQuery extends DateRangePageQuery {
  /**
   * Exact licence number
   * @example '123456'
   */
  @IsOptional()
  @Matches(MATRICULA, { message: 'must be 1 to 20 letters or digits' })
  matricula?: string;

  /**
   * Exact patient DNI (7–8 digits, no dots)
   * @example '30111222'
   */
  @IsOptional()
  @Matches(DNI, { message: 'must be 7 or 8 digits' })
  documento?: string;
}
