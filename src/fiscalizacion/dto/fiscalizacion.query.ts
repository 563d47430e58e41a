import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  DNI,
  DNI_PATTERN,
  MATRICULA,
  MATRICULA_PATTERN,
} from '../../common/validation/patterns.js';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { DateRangePageQuery } from '../../common/validation/date-range-page.query.js';
import { SUBTIPOS_RESTRINGIDOS, type SubtipoRestringido } from '../../recetas/recetas.service.js';

/** The authority's listing (SPEC 9.3): the range and page of listar, and three filters. */
export class ListarFiscalizacionQuery extends DateRangePageQuery {
  @ApiPropertyOptional({
    enum: SUBTIPOS_RESTRINGIDOS,
    description:
      'Only this CUIR subtype: 03 (bajo receta archivada) or 04 (legalmente restringido)',
  })
  @IsOptional()
  @IsIn(SUBTIPOS_RESTRINGIDOS, { message: `must be one of ${SUBTIPOS_RESTRINGIDOS.join(', ')}` })
  subtipo?: SubtipoRestringido;

  @ApiPropertyOptional({
    description: "Exact prescriber's licence number",
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
