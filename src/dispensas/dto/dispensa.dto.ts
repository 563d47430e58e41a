import { ArrayMaxSize, IsISO8601, IsInt, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import {
  ESTADO_RECETA_PROPERTY,
  FarmaciaDto,
  type EstadoReceta,
} from '../../recetas/recetas.public.js';

export class DispensaItemDto {
  /** Position in the prescription, from 1 */
  @IsInt()
  @Min(1)
  @Max(10)
  item: number;
  /** @example 'Ibuprofeno 400 mg comprimidos' */
  nombre: string;
  /**
   * The generic name prescribed, when the prescriber gave one
   * @example 'ibuprofeno'
   */
  @MaxLength(200)
  dci?: string;
  /**
   * The catalogue code prescribed, when the prescriber gave one
   * @example '1336421'
   */
  @MaxLength(32)
  codigo_prescrito?: string;
  /** @example 2 */
  @IsInt()
  @Min(1)
  @Max(999)
  cantidad_prescrita: number;
  /** @example 2 */
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

export class DispensaDto {
  /** @example '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b' */
  @IsUUID('all')
  id_dispensa: string;
  /** @example '00010001020102000000000000000000001234501' */
  cuir: string;
  @ApiProperty({
    ...ESTADO_RECETA_PROPERTY,
    description: `The prescription's state now (after the dispensation, in its answer). ${ESTADO_RECETA_PROPERTY.description}`,
  })
  estado_receta: EstadoReceta;
  @IsISO8601() fecha_dispensa: string;
  farmacia: FarmaciaDto;
  @ArrayMaxSize(10) items: DispensaItemDto[];
  /** When the service recorded it */
  @IsISO8601()
  registrada_at: string;
  /** Reversed: its items are dispensable again */
  revertida: boolean;
  @IsISO8601() revertida_at: string | null;
  motivo_reversion: string | null;
}
