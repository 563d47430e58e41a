import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { IsIsoDateTimeWithOffset } from '../../common/validation/validators.js';
import { ESTADOS } from '../receta-state.js';
import { RecetaItemDto } from './registrar-receta.dto.js';

export class VerificacionRecetaDto {
  @ApiProperty() cuir: string;
  @ApiProperty({ enum: ESTADOS }) estado: string;
  @ApiProperty({ format: 'date-time' }) fecha_creacion: string;
  @ApiProperty({ description: "The prescriber's licence" }) matricula_profesional: string;
  @ApiProperty({ description: 'INDEC code of the jurisdiction (from the CUIR)', example: '02' })
  jurisdiccion: string;
  @ApiProperty({ type: [RecetaItemDto] }) items: RecetaItemDto[];
  @ApiProperty({
    description:
      'SHA-256 (hex) of the canonical registered content: JSON with sorted keys of {cuir, fecha_creacion (UTC ISO 8601), matricula_profesional, refeps_id, locacion, id_de_receta, nombre_medicamento, items}. The patient document is left out on purpose.',
    example: '3f0c…',
  })
  content_sha256: string;
}

const dateRange = { context: { code: 'INVALID_DATE_RANGE' } };

export class ListarVerificacionesQuery {
  @ApiProperty({ description: 'From (inclusive), ISO 8601 with offset' })
  @IsDefined({ message: 'is required', ...dateRange })
  @IsIsoDateTimeWithOffset({ message: 'must be an ISO 8601 date-time with offset', ...dateRange })
  fecha_desde: string;

  @ApiProperty({ description: 'To (inclusive), ISO 8601 with offset' })
  @IsDefined({ message: 'is required', ...dateRange })
  @IsIsoDateTimeWithOffset({ message: 'must be an ISO 8601 date-time with offset', ...dateRange })
  fecha_hasta: string;

  @ApiPropertyOptional({ description: 'Only verifications of this CUIR' })
  @IsOptional()
  @Matches(/^\d{41}$/, { message: 'must be 41 digits' })
  cuir?: string;

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
}

export class VerificacionAuditDto {
  @ApiProperty() cuir: string;
  @ApiProperty({ nullable: true, type: String }) id_transaccion: string | null;
  @ApiProperty({ description: 'The API client that verified' }) verificado_por: string;
  @ApiProperty() verificado_por_id: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class ListadoVerificacionesDto {
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
  @ApiProperty({ type: [VerificacionAuditDto] }) items: VerificacionAuditDto[];
}
