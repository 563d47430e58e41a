import { ArrayMaxSize, IsISO8601, IsIn, IsInt, Max, Min } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { ESTADOS } from '../../receta-state.js';
import {
  ANULACION_PROPERTY,
  DispensaDeRecetaDto,
  ESTADO_RECETA_PROPERTY,
  VIGENCIA_DESDE_PROPERTY,
  VIGENCIA_HASTA_PROPERTY,
  RecetaItemDetalleDto,
} from '../../vida/dto/receta-vida.dto.js';
import type { AnulacionDto, EstadoReceta } from '../../vida/dto/receta-vida.dto.js';
import { CoberturaDto, DiagnosticoDto, PacienteDto } from '../../contenido/dto/contenido.dto.js';

export class RecetaResumenDto {
  /** @example '1042' */
  id_transaccion: string;
  id_de_receta: string | null;
  cuir: string;
  @IsISO8601() fecha_creacion: string;
  matricula_profesional: string;
  documento_paciente: string;
  @IsIn(ESTADOS) estado: string;
}

export class ListadoRecetasDto {
  /**
   * All matches of the filters (not just this page), counted exactly up to 10,000; beyond that it is 10,000 and `total_exact` is false (narrow the range or filter for an exact figure)
   * @example 1
   */
  @IsInt()
  @Min(0)
  @Max(10_000)
  total: number;
  /** Whether `total` is the exact number of matches (false past 10,000) */
  total_exact: boolean;
  /** @example 1 */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page: number;
  /** @example 50 */
  @IsInt()
  @Min(1)
  @Max(200)
  per_page: number;
  @ArrayMaxSize(200) items: RecetaResumenDto[];
  /**
   * Snapshot watermark: pass it as `as_of` to fetch further pages of this same listing
   * @example '1042'
   */
  as_of: string;
}

export class RecetaDetalleDto {
  id_transaccion: string;
  cuir: string;
  documento_paciente: string;
  matricula_profesional: string;
  refeps_id: string | null;
  locacion: string;
  id_de_receta: string | null;
  nombre_medicamento: string | null;
  @IsISO8601() fecha_creacion: string;
  /** The registered items, each with the units dispensed */
  @ArrayMaxSize(10)
  items: RecetaItemDetalleDto[];
  /** The patient, when registered */
  paciente?: PacienteDto;
  /** The coverage, when registered */
  cobertura?: CoberturaDto;
  /** The diagnosis, when registered */
  diagnostico?: DiagnosticoDto;
  /**
   * The ministry transaction: PENDING until the ministry acknowledges the prescription's pointer (COMPLETED) or rejects it or retries run out (FAILED)
   */
  @IsIn(ESTADOS)
  estado: string;
  mensaje: string;
  @IsISO8601() created_at: string;
  @IsISO8601() updated_at: string;
  /** Present once COMPLETED */
  @IsISO8601()
  completed_at?: string;
  /** Present once FAILED */
  failure_reason?: string;
  @ApiProperty(ESTADO_RECETA_PROPERTY) estado_receta: EstadoReceta;
  @ApiProperty(VIGENCIA_DESDE_PROPERTY) vigencia_desde: string;
  @ApiProperty(VIGENCIA_HASTA_PROPERTY) vigencia_hasta: string;
  @ApiProperty(ANULACION_PROPERTY) anulacion: AnulacionDto | null;
  /** Its dispensations, oldest first, reversed ones included */
  @ApiProperty({
    type: [DispensaDeRecetaDto],
    example: [
      {
        id_dispensa: '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
        fecha_dispensa: '2026-11-23T13:25:00Z',
        farmacia: { cuit: '30712345671', nombre: 'Farmacia Central' },
        items: [
          {
            item: 1,
            nombre: 'Ibuprofeno 400 mg comprimidos',
            cantidad_dispensada: 2,
            codigo: '1336421',
            sustituido: false,
          },
        ],
        revertida: false,
      },
    ],
  })
  dispensas: DispensaDeRecetaDto[];
}

export class HistorialEntryDto {
  @IsISO8601() at: string;
  /**
   * REGISTRADA, INTENTO, ESTADO, NOTIFICACION_NO_REQUERIDA, WEBHOOK; the cancellation: ANULADA, ANULACION_INTENTO (each attempt at telling the ministry), ANULACION_INFORMADA, ANULACION_FALLIDA, ANULACION_NO_INFORMADA (nothing to tell: the pointer was never accepted)
   */
  evento: string;
  @IsIn(ESTADOS) estado: string;
  /**
   * The delivery attempt (at most MINISTRY_MAX_ATTEMPTS, itself at most 100), or the webhook delivery attempt (at most WEBHOOK_MAX_ATTEMPTS, at most 50); null for a registration or a state change without one
   */
  @IsInt()
  @Min(1)
  @Max(100)
  intento: number | null;
  /** ok, error, rejected, completed, failed… */
  resultado: string | null;
  detalle: string | null;
}

export class TransaccionDto {
  id_transaccion: string;
  cuir: string;
  @IsIn(ESTADOS) estado: string;
  /**
   * Delivery attempts made so far (at most MINISTRY_MAX_ATTEMPTS, itself at most 100)
   * @example 1
   */
  @IsInt()
  @Min(0)
  @Max(100)
  intentos: number;
  @IsISO8601() ultimo_intento_at: string | null;
  @IsISO8601() proximo_intento_at: string | null;
  /** The ministry's receipt id once COMPLETED */
  ministerio_ref: string | null;
  historial: HistorialEntryDto[];
}
