import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { REFUSED_BMP_RANGES as R } from '../../common/validation/request-text.js';
import { DecimalInt } from '../../common/validation/validators.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class BuscarMedicamentosQueryDto {
  @ApiPropertyOptional({
    description:
      'Text searched in the commercial name and the active ingredient, 2–100 characters: case- and accent-insensitive, tolerant of small typos ("ibuprofen", "paracetmol"), best match first. Required unless `code` is sent; validated whenever sent, `code` or not.',
    minLength: 2,
    maxLength: 100,
    // Trimmed before the length check: at least two characters besides surrounding spaces;
    // no control characters (contract §1), so the spaces are whitespace minus those.
    pattern: `^[^\\S${R}]*[^\\s${R}][^${R}]*[^\\s${R}][^\\S${R}]*$`,
    example: 'ibuprofeno',
  })
  // Required unless code is sent, and validated whenever sent: a code does not make a bad q
  // acceptable (code still wins the search).
  @ValidateIf((o: BuscarMedicamentosQueryDto) => o.code === undefined || o.q !== undefined)
  @Transform(trim)
  @IsDefined({ message: 'is required unless code is sent' })
  @IsString({ message: 'must be a string' })
  @Length(2, 100, { message: 'must be from 2 to 100 characters' })
  q?: string;

  /**
   * Exact catalogue code; when sent, the search ignores `q` (which must still be valid). Required unless `q` is sent.
   * @example '1336421'
   */
  @IsOptional()
  @Matches(/^[0-9A-Za-z][0-9A-Za-z._-]{0,39}$/, {
    message: 'must be a catalogue code: 1 to 40 letters, digits, ".", "_" or "-"',
  })
  code?: string;

  /**
   * Page, 1-based
   * @example 1
   */
  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 1 })
  @IsOptional()
  @DecimalInt()
  @IsInt({ message: 'must be an integer from 1 to 1000000' })
  @Min(1, { message: 'must be an integer from 1 to 1000000' })
  @Max(1_000_000, { message: 'must be an integer from 1 to 1000000' })
  page?: number;

  /** Items per page */
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    default: DEFAULT_PER_PAGE,
    example: DEFAULT_PER_PAGE,
  })
  @IsOptional()
  @DecimalInt()
  @IsInt({ message: `must be an integer from 1 to ${MAX_PER_PAGE}` })
  @Min(1, { message: `must be an integer from 1 to ${MAX_PER_PAGE}` })
  @Max(MAX_PER_PAGE, { message: `must be an integer from 1 to ${MAX_PER_PAGE}` })
  per_page?: number;
}

export class MedicamentoDto {
  /**
   * Catalogue code
   * @example '1336421'
   */
  code: string;

  /**
   * Commercial name (nombre_comercial)
   * @example 'IBUPIRAC'
   */
  nombre: string;

  /**
   * Active ingredient (IFA)
   * @example 'IBUPROFENO'
   */
  principio_activo: string;

  /**
   * Pharmaceutical form and route of administration (the catalogue carries no dosage regimen)
   * @example 'COMPRIMIDO RECUBIERTO, VÍA ORAL'
   */
  posologia: string;

  /**
   * Strength (concentración)
   * @example '400 mg'
   */
  dosis: string;

  /**
   * Pack
   * @example 'envase x 20 comprimidos recubiertos'
   */
  presentacion: string;

  /** @example true */
  @ApiProperty({
    description:
      '**The name of this member depends on configuration**: `<INSURER_NAME>_descuento`, where INSURER_NAME is the insurer the deployment serves (default `pami`, so `pami_descuento`; with INSURER_NAME=ioma it is `ioma_descuento`). True when the catalogue lists a discount of that insurer on this presentation.',
  })
  pami_descuento: boolean;

  /**
   * Generic drug name (DCI), as used for prescribing by generic name
   * @example 'IBUPROFENO'
   */
  droga: string;
}

export class MedicamentosPageDto {
  /**
   * Matches in all pages
   * @example 1
   */
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  total: number;
  /** @example 1 */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page: number;
  @ApiProperty({
    example: DEFAULT_PER_PAGE,
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_PER_PAGE,
  })
  per_page: number;
  /** Best match first */
  @ArrayMaxSize(MAX_PER_PAGE)
  items: MedicamentoDto[];
}
