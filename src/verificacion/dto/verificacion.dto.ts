import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsISO8601,
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { DateRangePageQuery } from '../../common/validation/date-range-page.query.js';
import {
  ESTADOS,
  CoberturaDto,
  RecetaItemDto,
  RecetaVistaDto,
  SUSTITUIBLE_PROPERTY,
} from '../../recetas/recetas.public.js';

export class VerificacionItemDto extends RecetaItemDto {
  /** Position in the prescription, from 1: the `item` to dispense */
  @IsInt()
  @Min(1)
  @Max(10)
  item: number;
  @ApiProperty(SUSTITUIBLE_PROPERTY) declare sustituible: boolean;
  /** Units dispensed by dispensations not reversed (0: not dispensed) */
  @IsInt()
  @Min(0)
  @Max(999)
  dispensado: number;
  /**
   * Whether the caller may dispense it now: not dispensed, the prescription not ANULADA, today within the validity window, and no other dispenser holding a live reservation
   */
  dispensable: boolean;
}

/** Described inline on `reserva` (a class so the plugin can name the type). */
export class ReservaVerificacionDto {
  vence_at: string;
  propia: boolean;
}

export class VerificacionRecetaDto extends RecetaVistaDto {
  /**
   * The ministry transaction: PENDING until the ministry acknowledges the prescription's pointer (COMPLETED) or rejects it or retries run out (FAILED)
   */
  @IsIn(ESTADOS)
  estado: string;
  /**
   * INDEC code of the jurisdiction (from the CUIR)
   * @example '02'
   */
  jurisdiccion: string;
  /**
   * Each item with its content (generic name, strength, form, presentation, dosage, whether it may be substituted)
   */
  @ArrayMaxSize(10)
  items: VerificacionItemDto[];
  /**
   * The patient's coverage, when registered: the pharmacy bills it. The patient, the diagnosis and the document are never shown here.
   */
  cobertura?: CoberturaDto;
  /** null, or the live reservation: when it lapses and whether it is yours */
  // Inline rather than a $ref: OpenAPI 3.0's `nullable` does not reach through a reference.
  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      vence_at: {
        type: 'string',
        format: 'date-time',
        description: 'When the live reservation lapses',
      },
      propia: {
        type: 'boolean',
        description: 'Whether the caller holds it (who else does is never told)',
      },
    },
    required: ['vence_at', 'propia'],
    selfRequired: true,
    example: null,
  })
  reserva: ReservaVerificacionDto | null;
  /**
   * SHA-256 (hex) of the canonical registered content (contract §3): JSON with sorted keys of every registered member and the validity window, where the patient's document, the patient, the coverage and the diagnosis enter only as a salted SHA-256 the service keeps (so the hash reveals none of them). Prescriptions registered before the content members keep their earlier hash (without the window).
   * @example '9f2c4e1a7b3d5f60812a4c6e8b0d2f4618a3c5e7092b4d6f81a3c5e7092b4d6f'
   */
  @Matches(/^[0-9a-f]{64}$/)
  content_sha256: string;
}

/** Verifications of the caller's prescriptions in a date range. */
export class ListarVerificacionesQuery extends DateRangePageQuery {
  /**
   * Only verifications of this CUIR
   * @example '00010001020102000000000000000000001234501'
   */
  @IsOptional()
  @Matches(/^[0-9]{41}$/, { message: 'must be 41 digits' })
  cuir?: string;
}

export class VerificacionAuditDto {
  cuir: string;
  id_transaccion: string | null;
  /** The API client that verified */
  verificado_por: string;
  verificado_por_id: string;
  @IsISO8601() at: string;
}

export class ListadoVerificacionesDto {
  /**
   * All matches of the filters, not just this page
   * @example 1
   */
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })
  total: number;
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
  @ArrayMaxSize(200) items: VerificacionAuditDto[];
}
