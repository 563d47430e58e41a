import { ArrayMaxSize, IsInt, IsISO8601, IsUUID, Max, Min } from 'class-validator';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { RecetaItemDto } from '../../registro/dto/registrar-receta.dto.js';
import { ESTADOS_RECETA } from '../estado-receta.js';
import type { EstadoReceta } from '../estado-receta.js';

/** The pharmacy that dispensed (shared by the dispensation's answers). */
export class FarmaciaDto {
  /**
   * CUIT, 11 digits with a valid check digit
   * @example '30712345671'
   */
  cuit: string;
  /** @example 'Farmacia Central' */
  nombre: string;
}

export interface AnulacionDto {
  at: string;
  motivo: string;
}

/**
 * `anulacion`, inline rather than a $ref: OpenAPI 3.0's `nullable` does not reach through a
 * reference (`allOf: [$ref]` would refuse the null it may be).
 */
export const ANULACION_PROPERTY: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  properties: {
    at: { type: 'string', format: 'date-time', description: 'When the owner cancelled it' },
    motivo: { type: 'string', example: 'Error en la dosis prescripta' },
  },
  required: ['at', 'motivo'],
  selfRequired: true,
  description: 'null, or when and why the owner cancelled it',
  example: null,
};

export class DispensaDeRecetaItemDto {
  /** Position in the prescription, from 1 */
  @IsInt()
  @Min(1)
  @Max(10)
  item: number;
  /** @example 'Ibuprofeno 400 mg comprimidos' */
  nombre: string;
  /** Units dispensed (at most the prescribed) */
  @IsInt()
  @Min(1)
  @Max(999)
  cantidad_dispensada: number;
  /**
   * Catalogue code dispensed
   * @example '1336421'
   */
  codigo?: string;
  /** Another brand or a generic was given */
  sustituido: boolean;
}

/** A dispensation in the owner's detail, under the names its own answer uses (SPEC 11.11). */
export class DispensaDeRecetaDto {
  /** @example '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b' */
  @IsUUID('all')
  id_dispensa: string;
  /** When it was dispensed */
  @IsISO8601()
  fecha_dispensa: string;
  farmacia: FarmaciaDto;
  @ArrayMaxSize(10) items: DispensaDeRecetaItemDto[];
  /** Reversed by the dispenser: its items are dispensable again */
  revertida: boolean;
}

/** `sustituible` as every answer gives it: always said (true unless the prescriber forbade it). */
export const SUSTITUIBLE_PROPERTY = {
  // Explicit: a subclass's property otherwise keeps the request DTO's `required: false`.
  required: true,
  description:
    'Whether another brand or a generic may be given; false: the prescriber forbids substitution',
  example: true,
} as const;

export class RecetaItemDetalleDto extends RecetaItemDto {
  @ApiProperty(SUSTITUIBLE_PROPERTY) declare sustituible: boolean;
  /** Units dispensed by dispensations not reversed (0: not dispensed) */
  @IsInt()
  @Min(0)
  @Max(999)
  dispensado: number;
}

/** `estado_receta` in OpenAPI, with its rule. */
export const ESTADO_RECETA_PROPERTY = {
  enum: ESTADOS_RECETA,
  description:
    "The prescription's own state, the first that applies: ANULADA (cancelled); DISPENSADA (every item dispensed by a dispensation not reversed; fewer units than prescribed close an item); VENCIDA (today, in Argentina time, after vigencia_hasta); DISPENSADA_PARCIAL (some items dispensed); VIGENTE (also before a later start date: valid, but not dispensable before vigencia_desde). Apart from `estado`, the ministry transaction.",
  example: 'VIGENTE',
} as const;

/** `vigencia_desde` / `vigencia_hasta` in OpenAPI: the validity window (contract §7). */
export const VIGENCIA_DESDE_PROPERTY = {
  format: 'date',
  description: 'First valid day (Argentina time)',
  example: '2026-11-22',
} as const;
export const VIGENCIA_HASTA_PROPERTY = {
  format: 'date',
  description: 'Last valid day, included (Argentina time)',
  example: '2026-12-21',
} as const;

export type { EstadoReceta };
