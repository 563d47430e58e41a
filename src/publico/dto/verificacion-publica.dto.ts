import { ArrayMaxSize, IsInt, Matches, Max, MaxLength, Min } from 'class-validator';
import { RecetaVistaDto } from '../../recetas/recetas.public.js';

export class ItemPublicoDto {
  /** @example 1 */
  @IsInt()
  @Min(1)
  @Max(10)
  item: number;
  /** @example 'Ibuprofeno 400 mg comprimidos' */
  @MaxLength(200)
  nombre: string;
  /**
   * The generic name, when the prescriber gave one
   * @example 'ibuprofeno'
   */
  @MaxLength(200)
  dci?: string;
  /**
   * The concentration, when the prescriber gave one
   * @example '400 mg'
   */
  @MaxLength(50)
  concentracion?: string;
  /** @example 2 */
  @IsInt()
  @Min(1)
  @Max(999)
  cantidad: number;
  /**
   * Units dispensed by dispensations not reversed
   * @example 0
   */
  @IsInt()
  @Min(0)
  @Max(999)
  dispensado: number;
}

/**
 * What anyone holding the printed link may see (contract §9.4): that the prescription is
 * registered here, its state and window, the prescriber, the items and the content hash —
 * never the patient's document, name, coverage or diagnosis.
 */
export class VerificacionPublicaDto extends RecetaVistaDto {
  /**
   * INDEC code of the CUIR’s jurisdiction
   * @example '02'
   */
  jurisdiccion: string;
  /** @example 'Ciudad Autónoma de Buenos Aires' */
  jurisdiccion_nombre: string;
  /**
   * The prescriber’s name from REFEPS, when known (null while it cannot be asked)
   * @example 'GÓMEZ, LAURA'
   */
  profesional_nombre: string | null;
  @ArrayMaxSize(10)
  items: ItemPublicoDto[];
  /** @example '9f2c4e1a7b3d5f60812a4c6e8b0d2f4618a3c5e7092b4d6f81a3c5e7092b4d6f' */
  @Matches(/^[0-9a-f]{64}$/)
  content_sha256: string;
}
