import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { DateRangePageQuery } from '../../common/validation/date-range-page.query.js';
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

/** Verifications of the caller's prescriptions in a date range. */
export class ListarVerificacionesQuery extends DateRangePageQuery {
  @ApiPropertyOptional({ description: 'Only verifications of this CUIR' })
  @IsOptional()
  @Matches(/^\d{41}$/, { message: 'must be 41 digits' })
  cuir?: string;
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
