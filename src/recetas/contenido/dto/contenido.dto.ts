import { applyDecorators } from '@nestjs/common';
import { customValidator } from '../../../common/validation/validator-schemas.js';
import { IsDefined, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { argentinaDate, isCalendarDate } from '../../vida/vigencia.js';
import {
  AFILIADO,
  CALENDAR_DATE_PATTERN,
  CIE10,
  RNOS,
  SEXOS,
  type Sexo,
} from '../contenido-patterns.js';

// SPEC 9.2's prescription-level members, as a registration sends them and every view answers them.
const required = { message: 'is required' };
/** A string of 1 to `max` characters (contract §1 refuses control characters everywhere). */
export const Text = (max: number) =>
  applyDecorators(
    IsString({ message: 'must be a string' }),
    Length(1, max, { message: `must be 1 to ${max} characters` }),
  );

const NACIMIENTO_MIN = '1900-01-01';

/** Why `value` is not an acceptable birth date, or null. */
export function nacimientoProblem(value: unknown, now = new Date()): string | null {
  if (!isCalendarDate(value)) return 'must be a calendar date YYYY-MM-DD';
  if (value < NACIMIENTO_MIN) return `must not be before ${NACIMIENTO_MIN}`;
  if (value > argentinaDate(now)) return 'must not be in the future (Argentina time)';
  return null;
}

const IsNacimiento = customValidator(
  'isNacimiento',
  { format: 'date', pattern: CALENDAR_DATE_PATTERN, minLength: 10, maxLength: 10 },
  () => ({
    validate: (v: unknown) => nacimientoProblem(v) === null,
    defaultMessage: (args) => nacimientoProblem(args?.value) ?? 'must be a calendar date',
  }),
);

export class PacienteDto {
  /**
   * The patient's given names
   * @example 'Ana María'
   */
  @IsDefined(required)
  @Text(100)
  nombre: string;

  /**
   * The patient's surnames
   * @example 'Fernández'
   */
  @IsDefined(required)
  @Text(100)
  apellido: string;

  /**
   * As the national registry writes it (Ley 26.743): F, M or X
   * @example 'F'
   */
  @IsDefined(required)
  @IsIn(SEXOS, { message: 'must be F, M or X' })
  sexo: Sexo;

  /**
   * Birth date, YYYY-MM-DD: from 1900-01-01, not in the future (Argentina time)
   * @example '1985-03-14'
   */
  @IsDefined(required)
  @IsNacimiento()
  fecha_nacimiento: string;
}

export class CoberturaDto {
  /**
   * The insurer's name (obra social, prepaga or PAMI)
   * @example 'PAMI'
   */
  @IsDefined(required)
  @Text(100)
  financiador: string;

  /**
   * The patient's member number: 1–30 letters, digits, `-` or `/`
   * @example '15-12345678-9/00'
   */
  @IsDefined(required)
  @IsString({ message: 'must be a string' })
  @Matches(AFILIADO, { message: 'must be 1 to 30 letters, digits, - or /' })
  numero_afiliado: string;

  /**
   * The insurer's code in the national registry (RNOS), 6 digits
   * @example '500807'
   */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(RNOS, { message: 'must be 6 digits (an RNOS code)' })
  codigo_rnos?: string;

  /**
   * The member's plan
   * @example 'Plan 210'
   */
  @IsOptional()
  @Text(50)
  plan?: string;
}

export class DiagnosticoDto {
  /**
   * ICD-10 code (CIE-10): a letter other than U, two digits, optionally a dot and 1–4 digits or capitals
   * @example 'J02.9'
   */
  @IsDefined(required)
  @IsString({ message: 'must be a string' })
  @Matches(CIE10, { message: 'must be an ICD-10 code (e.g. J02.9)' })
  codigo: string;

  /** @example 'Faringitis aguda, no especificada' */
  @IsOptional()
  @Text(200)
  descripcion?: string;
}
