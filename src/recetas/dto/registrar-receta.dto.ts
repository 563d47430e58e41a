import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  IsCuir,
  IsIsoDateTimeWithOffset,
  NormalizeDni,
} from '../../common/validation/validators.js';

const required = { message: 'is required' };
const text = (max: number) => [
  IsString({ message: 'must be a string' }),
  Length(1, max, { message: `must be 1 to ${max} characters` }),
];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

/** Five minutes of clock skew between the provider's clock and ours. */
export const MAX_FUTURE_MS = 5 * 60_000;

export class RecetaItemDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Ibuprofeno 400 mg comprimidos' })
  @IsDefined(required)
  @apply(text(200))
  nombre: string;

  @ApiProperty({ minimum: 1, maximum: 999, example: 2, type: 'integer' })
  @IsDefined(required)
  @IsInt({ message: 'must be an integer from 1 to 999' })
  @Min(1, { message: 'must be an integer from 1 to 999' })
  @Max(999, { message: 'must be an integer from 1 to 999' })
  cantidad: number;

  @ApiPropertyOptional({
    description: 'Catalogue code (GET /v1/medicamentos/buscar)',
    minLength: 1,
    maxLength: 32,
    example: '1000123',
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(/^[A-Za-z0-9-]{1,32}$/, { message: 'must be 1 to 32 letters, digits or dashes' })
  codigo?: string;
}

export class RegistrarRecetaDto {
  @ApiProperty({
    description: 'Patient DNI, 7–8 digits; dots allowed on input (30.111.222), stored without',
    example: '30111222',
  })
  @IsDefined(required)
  @NormalizeDni()
  @Matches(/^\d{7,8}$/, { message: 'must be a DNI of 7 or 8 digits (dots allowed: 30.111.222)' })
  documento_paciente: string;

  @ApiProperty({
    description:
      'Licence number, 1–20 letters or digits; checked against REFEPS in the CUIR jurisdiction',
    example: '123456',
  })
  @IsDefined(required)
  @Matches(/^[A-Za-z0-9]{1,20}$/, { message: 'must be 1 to 20 letters or digits' })
  matricula_profesional: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 40, example: '8123456' })
  @IsOptional()
  @apply(text(40))
  refeps_id?: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Hospital de Clínicas, consultorio 12' })
  @IsDefined(required)
  @apply(text(200))
  locacion: string;

  @ApiProperty({
    description:
      'A structurally valid 41-digit CUIR (known jurisdiction, type, and subtype for that type)',
    example: '00010001020102000000000000000000001234501',
  })
  @IsDefined(required)
  @IsCuir()
  cuir: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: 'RX-2026-000123' })
  @IsOptional()
  @apply(text(64))
  id_de_receta?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'Ibuprofeno' })
  @IsOptional()
  @apply(text(200))
  nombre_medicamento?: string;

  @ApiProperty({
    description: 'ISO 8601 date-time with offset; at most 5 minutes in the future',
    example: '2026-11-22T10:30:00-03:00',
  })
  @IsDefined(required)
  @IsIsoDateTimeWithOffset({ maxFutureMs: MAX_FUTURE_MS })
  fecha_creacion: string;

  @ApiProperty({ type: [RecetaItemDto], minItems: 1, maxItems: 10 })
  @IsDefined(required)
  @IsArray({ message: 'must be an array of 1 to 10 items' })
  @ArrayMinSize(1, { message: 'must be an array of 1 to 10 items' })
  @ArrayMaxSize(10, { message: 'must be an array of 1 to 10 items' })
  @ValidateNested({ each: true })
  @Type(() => RecetaItemDto)
  items: RecetaItemDto[];
}
