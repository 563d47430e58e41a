import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ESTADOS } from '../receta-state.js';
import { RecetaItemDto } from './registrar-receta.dto.js';

export class RegistroRecetaDto {
  @ApiProperty({ description: 'Sequential transaction id (decimal string)', example: '1042' })
  id_transaccion: string;
  @ApiProperty({ enum: ESTADOS, example: 'PENDING' }) estado: string;
  @ApiProperty({
    example: 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud',
  })
  mensaje: string;
  @ApiProperty({ example: '00010001020102000000000000000000001234501' }) cuir: string;
  @ApiProperty({ nullable: true, type: String, example: 'RX-2026-000123' }) id_de_receta:
    string | null;
}

export class RecetaResumenDto {
  @ApiProperty({ example: '1042' }) id_transaccion: string;
  @ApiProperty({ nullable: true, type: String }) id_de_receta: string | null;
  @ApiProperty() cuir: string;
  @ApiProperty({ format: 'date-time' }) fecha_creacion: string;
  @ApiProperty() matricula_profesional: string;
  @ApiProperty() documento_paciente: string;
  @ApiProperty({ enum: ESTADOS }) estado: string;
}

export class ListadoRecetasDto {
  @ApiProperty({
    description:
      'All matches of the filters (not just this page), counted exactly up to 10,000; beyond that it is 10,000 and `total_exact` is false (narrow the range or filter for an exact figure)',
  })
  total: number;
  @ApiProperty({
    description: 'Whether `total` is the exact number of matches (false past 10,000)',
  })
  total_exact: boolean;
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
  @ApiProperty({ type: [RecetaResumenDto] }) items: RecetaResumenDto[];
  @ApiProperty({
    description:
      'Snapshot watermark: pass it as `as_of` to fetch further pages of this same listing',
    example: '1042',
  })
  as_of: string;
}

export class RecetaDetalleDto {
  @ApiProperty() id_transaccion: string;
  @ApiProperty() cuir: string;
  @ApiProperty() documento_paciente: string;
  @ApiProperty() matricula_profesional: string;
  @ApiProperty({ nullable: true, type: String }) refeps_id: string | null;
  @ApiProperty() locacion: string;
  @ApiProperty({ nullable: true, type: String }) id_de_receta: string | null;
  @ApiProperty({ nullable: true, type: String }) nombre_medicamento: string | null;
  @ApiProperty({ format: 'date-time' }) fecha_creacion: string;
  @ApiProperty({ type: [RecetaItemDto] }) items: RecetaItemDto[];
  @ApiProperty({ enum: ESTADOS }) estado: string;
  @ApiProperty() mensaje: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Present once COMPLETED' })
  completed_at?: string;
  @ApiPropertyOptional({ description: 'Present once FAILED' }) failure_reason?: string;
}

export class HistorialEntryDto {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'REGISTRADA, INTENTO, ESTADO, NOTIFICACION_NO_REQUERIDA' })
  evento: string;
  @ApiProperty({ enum: ESTADOS }) estado: string;
  @ApiProperty({ nullable: true, type: Number }) intento: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'ok, error, rejected, completed, failed…',
  })
  resultado: string | null;
  @ApiProperty({ nullable: true, type: String }) detalle: string | null;
}

export class TransaccionDto {
  @ApiProperty() id_transaccion: string;
  @ApiProperty() cuir: string;
  @ApiProperty({ enum: ESTADOS }) estado: string;
  @ApiProperty({ description: 'Delivery attempts made so far' }) intentos: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) ultimo_intento_at:
    string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) proximo_intento_at:
    string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The ministry's receipt id once COMPLETED",
  })
  ministerio_ref: string | null;
  @ApiProperty({ type: [HistorialEntryDto] }) historial: HistorialEntryDto[];
}
