import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { UUID_PATTERN } from '../../common/validation/patterns.js';
import { IsIsoDateTimeWithOffset } from '../../common/validation/validators.js';
import { IsCuir } from '../../cuir/cuir.public.js';
import { isValidCuit } from '../../paciente/paciente.public.js';

const required = { message: 'is required' };

/** The units column is an int32; anything above the prescribed (≤ 999) is a 422 well before. */
const INT32_MAX = 2_147_483_647;

export class FarmaciaInputDto {
  /**
   * The pharmacy's CUIT: 11 digits with a valid check digit (mod 11), no dashes
   * @example '30712345671'
   */
  @IsDefined(required)
  @Matches(/^\d{11}$/, { message: 'must be 11 digits (a CUIT, no dashes)' })
  @ValidateBy({
    name: 'isValidCuit',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && isValidCuit(v),
      defaultMessage: () => 'must be a CUIT with a valid check digit',
    },
  })
  cuit: string;

  /** @example 'Farmacia Central' */
  @IsDefined(required)
  @IsString({ message: 'must be a string' })
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  nombre: string;
}

export class DispensarItemDto {
  /**
   * Position in the prescription's items, from 1; beyond its items: 400
   * @example 1
   */
  @IsDefined(required)
  @IsInt({ message: 'must be an integer from 1 to 10' })
  @Min(1, { message: 'must be an integer from 1 to 10' })
  @Max(10, { message: 'must be an integer from 1 to 10' })
  item: number;

  /**
   * Units dispensed: at most the prescribed (more: 422 CANTIDAD_EXCEDIDA); fewer close the item all the same
   * @example 2
   */
  @IsDefined(required)
  @IsInt({ message: 'must be an integer of 1 or more' })
  @Min(1, { message: 'must be an integer of 1 or more' })
  @Max(INT32_MAX, { message: `must be an integer from 1 to ${INT32_MAX}` })
  cantidad: number;

  /**
   * Catalogue code dispensed (GET /v1/medicamentos/buscar): it must be in the catalogue (else 422 MEDICAMENTO_DESCONOCIDO), and one other than the item's prescribed codigo is a substitution (without sustituido: true, 422 SUSTITUCION_NO_DECLARADA)
   * @example '1336421'
   */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(/^[A-Za-z0-9-]{1,32}$/, { message: 'must be 1 to 32 letters, digits or dashes' })
  codigo?: string;

  /**
   * Another brand or a generic was given (default false); on an item the prescriber marked sustituible: false, 422 SUSTITUCION_NO_PERMITIDA
   * @example false
   */
  @IsOptional()
  @IsBoolean({ message: 'must be a boolean' })
  sustituido?: boolean;
}

export class DispensarDto {
  /**
   * The prescription, by its CUIR: a structurally valid 41-digit CUIR
   * @example '00010001020102000000000000000000001234501'
   */
  @IsDefined(required)
  @IsCuir()
  cuir: string;

  /**
   * Your reservation on this prescription (POST /v1/dispensas/reservas): it is consumed. Another prescription's or another client's id: 400. Without it, a live reservation of yours on the prescription is consumed all the same.
   */
  // IsUUID('all') is this pattern; `format: uuid` alone would also admit a `urn:uuid:` prefix.
  @ApiPropertyOptional({ pattern: UUID_PATTERN, maxLength: 36 })
  @IsOptional()
  @IsUUID('all', { message: 'must be a reservation id (UUID)' })
  reserva_id?: string;

  @IsDefined(required)
  @IsObject({ message: 'must be an object with cuit and nombre' })
  @ValidateNested()
  @Type(() => FarmaciaInputDto)
  farmacia: FarmaciaInputDto;

  /**
   * When it was dispensed: ISO 8601 with offset, at most 5 minutes ahead, not before the prescription was issued; its date in Argentina time must fall in the validity window
   * @example '2026-11-23T10:25:00-03:00'
   */
  @IsDefined(required)
  // Its 5 minutes ahead are a rule checked once the CUIR is found (reglas-dispensa.ts).
  @IsIsoDateTimeWithOffset()
  fecha_dispensa: string;

  /** 1 to 10 items, each `item` at most once */
  @IsDefined(required)
  @IsArray({ message: 'must be an array of 1 to 10 items' })
  @ArrayMinSize(1, { message: 'must be an array of 1 to 10 items' })
  @ArrayMaxSize(10, { message: 'must be an array of 1 to 10 items' })
  @ArrayUnique((i: { item?: unknown } | null) => (i && typeof i === 'object' ? i.item : i), {
    message: 'must not name an item twice',
  })
  // Without it an array element ([[]]) passes ValidateNested: its own elements are checked.
  @IsObject({ each: true, message: 'each item must be an object with item and cantidad' })
  @ValidateNested({ each: true })
  @Type(() => DispensarItemDto)
  items: DispensarItemDto[];
}
