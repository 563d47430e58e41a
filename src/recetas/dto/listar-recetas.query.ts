import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { IsIsoDateTimeWithOffset } from '../../common/validation/validators.js';
import { ESTADOS } from '../receta-state.js';
import type { Estado } from '../receta-state.js';

const dateRange = { context: { code: 'INVALID_DATE_RANGE' } };

export class ListarRecetasQuery {
  @ApiProperty({
    description: 'Start of the range (inclusive), ISO 8601 date-time with offset',
    example: '2026-11-01T00:00:00-03:00',
  })
  @IsDefined({ message: 'is required', ...dateRange })
  @IsIsoDateTimeWithOffset({ message: 'must be an ISO 8601 date-time with offset', ...dateRange })
  fecha_desde: string;

  @ApiProperty({
    description:
      'End of the range (inclusive), ISO 8601 date-time with offset; not before fecha_desde',
    example: '2026-11-30T23:59:59-03:00',
  })
  @IsDefined({ message: 'is required', ...dateRange })
  @IsIsoDateTimeWithOffset({ message: 'must be an ISO 8601 date-time with offset', ...dateRange })
  fecha_hasta: string;

  @ApiPropertyOptional({ description: 'Exact licence number', example: '123456' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9]{1,20}$/, { message: 'must be 1 to 20 letters or digits' })
  matricula?: string;

  @ApiPropertyOptional({ description: 'Exact patient DNI (7–8 digits)', example: '30111222' })
  @IsOptional()
  @Matches(/^\d{7,8}$/, { message: 'must be 7 or 8 digits' })
  documento?: string;

  @ApiPropertyOptional({ enum: ESTADOS })
  @IsOptional()
  @IsIn(ESTADOS, { message: `must be one of ${ESTADOS.join(', ')}` })
  estado?: Estado;

  @ApiPropertyOptional({ minimum: 1, default: 1, type: 'integer' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer ≥ 1' })
  @Min(1, { message: 'must be an integer ≥ 1' })
  @Max(1_000_000, { message: 'must be an integer ≥ 1 and ≤ 1000000' })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50, type: 'integer' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer from 1 to 200' })
  @Min(1, { message: 'must be an integer from 1 to 200' })
  @Max(200, { message: 'must be an integer from 1 to 200' })
  per_page?: number;

  @ApiPropertyOptional({
    description:
      'Snapshot watermark for stable paging: pass the `as_of` returned with page 1 when fetching the next pages, and rows registered after it are left out, so pages stay disjoint and complete while new prescriptions arrive.',
    example: '1042',
  })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'must be an id_transaccion (digits)' })
  as_of?: string;
}
