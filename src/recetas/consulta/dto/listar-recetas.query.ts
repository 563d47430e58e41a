import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  DNI,
  DNI_PATTERN,
  ID_TRANSACCION,
  ID_TRANSACCION_PATTERN,
  MATRICULA,
  MATRICULA_PATTERN,
} from '../../../common/validation/patterns.js';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { DateRangePageQuery } from '../../../common/validation/date-range-page.query.js';
import { ESTADOS } from '../../receta-state.js';
import type { Estado } from '../../receta-state.js';

export class ListarRecetasQuery extends DateRangePageQuery {
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

  @ApiPropertyOptional({
    enum: ESTADOS,
    description:
      "Only prescriptions whose ministry transaction is in this state (`estado`: PENDING, COMPLETED or FAILED; not `estado_receta`, which the listing's summary does not carry)",
  })
  @IsOptional()
  @IsIn(ESTADOS, { message: `must be one of ${ESTADOS.join(', ')}` })
  estado?: Estado;

  @ApiPropertyOptional({
    description:
      'Snapshot watermark for stable paging: pass the `as_of` returned with page 1 when fetching the next pages, and rows registered after it are left out, so pages stay disjoint and complete while new prescriptions arrive.',
    example: '1042',
    pattern: ID_TRANSACCION_PATTERN,
    maxLength: 18,
  })
  @IsOptional()
  @Matches(ID_TRANSACCION, { message: 'must be an id_transaccion (digits)' })
  as_of?: string;
}
