import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DNI, DNI_INPUT_PATTERN, MATRICULA } from '../../../common/validation/patterns.js';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  IsObject,
  ValidateNested,
} from 'class-validator';
import { IsIsoDateTimeWithOffset, NormalizeDni } from '../../../common/validation/validators.js';
import { IsCuir } from '../../../cuir/cuir.public.js';
import { CODIGO_MEDICAMENTO } from '../../contenido/contenido-patterns.js';
import {
  CoberturaDto,
  DiagnosticoDto,
  PacienteDto,
  Text,
} from '../../contenido/dto/contenido.dto.js';
import { IsInicioVigencia } from './inicio-vigencia.validator.js';

const required = { message: 'is required' };

/** Five minutes of clock skew between the provider's clock and ours. */
const MAX_FUTURE_MS = 5 * 60_000;

export class RecetaItemDto {
  /** @example 'Ibuprofeno 400 mg comprimidos' */
  @IsDefined(required)
  @Text(200)
  nombre: string;

  /** @example 2 */
  @IsDefined(required)
  @IsInt({ message: 'must be an integer from 1 to 999' })
  @Min(1, { message: 'must be an integer from 1 to 999' })
  @Max(999, { message: 'must be an integer from 1 to 999' })
  cantidad: number;

  /**
   * Catalogue code (GET /v1/medicamentos/buscar): it must be in the catalogue, else 422 MEDICAMENTO_DESCONOCIDO (accepted as is while the catalogue mirror has never synced)
   * @example '1336421'
   */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(CODIGO_MEDICAMENTO, { message: 'must be 1 to 32 letters, digits or dashes' })
  codigo?: string;

  /**
   * The generic name (international non-proprietary name, Ley 25.649)
   * @example 'ibuprofeno'
   */
  @IsOptional()
  @Text(200)
  dci?: string;

  /**
   * Strength
   * @example '400 mg'
   */
  @IsOptional()
  @Text(50)
  concentracion?: string;

  /**
   * Pharmaceutical form
   * @example 'comprimido recubierto'
   */
  @IsOptional()
  @Text(50)
  forma_farmaceutica?: string;

  /**
   * Presentation (pack)
   * @example 'envase x 20 comprimidos'
   */
  @IsOptional()
  @Text(100)
  presentacion?: string;

  /**
   * Dosage instructions
   * @example '1 comprimido cada 8 horas durante 5 días'
   */
  @IsOptional()
  @Text(300)
  posologia?: string;

  /**
   * Whether the dispenser may give another brand or a generic (default true); false: the prescriber forbids substitution (a dispensation with `sustituido: true` is 422 SUSTITUCION_NO_PERMITIDA)
   * @example true
   */
  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'must be a boolean' })
  sustituible?: boolean;
}

export class RegistrarRecetaDto {
  /**
   * Patient DNI, 7–8 digits; dots allowed on input (30.111.222), stored without
   * @example '30111222'
   */
  // What the client may send: NormalizeDni strips the dots before the pattern below is checked.
  @ApiProperty({ pattern: DNI_INPUT_PATTERN, minLength: 7, maxLength: 10 })
  @IsDefined(required)
  @NormalizeDni()
  @Matches(DNI, { message: 'must be a DNI of 7 or 8 digits (dots allowed: 30.111.222)' })
  documento_paciente: string;

  /**
   * Licence number, 1–20 letters or digits; checked against REFEPS in the CUIR jurisdiction
   * @example '123456'
   */
  @IsDefined(required)
  @Matches(MATRICULA, { message: 'must be 1 to 20 letters or digits' })
  matricula_profesional: string;

  /** @example '8123456' */
  @IsOptional()
  @Text(40)
  refeps_id?: string;

  /** @example 'Hospital de Clínicas, consultorio 12' */
  @IsDefined(required)
  @Text(200)
  locacion: string;

  /**
   * A structurally valid 41-digit CUIR (known jurisdiction, type, and subtype for that type). Type 01 with subtype 03 (bajo receta archivada) or 04 (legalmente restringido) is a restricted prescription: see paciente
   * @example '00010001020102000000000000000000001234501'
   */
  @IsDefined(required)
  @IsCuir()
  cuir: string;

  /** @example 'RX-2026-000123' */
  @IsOptional()
  @Text(64)
  id_de_receta?: string;

  /** @example 'Ibuprofeno' */
  @IsOptional()
  @Text(200)
  nombre_medicamento?: string;

  /**
   * ISO 8601 date-time with offset, written from year 1900 on (earlier dates, which PostgreSQL may not even store, are refused with 400); at most 5 minutes in the future
   * @example '2026-11-22T10:30:00-03:00'
   */
  @IsDefined(required)
  @IsIsoDateTimeWithOffset({ maxFutureMs: MAX_FUTURE_MS })
  fecha_creacion: string;

  @IsDefined(required)
  @IsArray({ message: 'must be an array of 1 to 10 items' })
  @ArrayMinSize(1, { message: 'must be an array of 1 to 10 items' })
  @ArrayMaxSize(10, { message: 'must be an array of 1 to 10 items' })
  // Without it an array element ([[]]) passes ValidateNested: its own elements are checked.
  @IsObject({ each: true, message: 'each item must be an object with nombre and cantidad' })
  @ValidateNested({ each: true })
  @Type(() => RecetaItemDto)
  items: RecetaItemDto[];

  /**
   * First day of the validity window: a calendar date from the date of fecha_creacion in Argentina time (UTC−03:00) to 365 days after it; default that date. The window lasts VIGENCIA_DIAS_MEDICAMENTOS days (CUIR type 01, default 30) or VIGENCIA_DIAS_OTRAS (types 02 and 03, default 60), this day included. A chronic treatment is several prescriptions with staggered start dates.
   * @example '2026-11-22'
   */
  @IsOptional()
  @IsInicioVigencia()
  fecha_inicio_vigencia?: string;

  /**
   * The patient: all four members required when the object is sent. Required on a restricted prescription (CUIR type 01, subtype 03 or 04), whose every item also needs dci, concentracion, forma_farmaceutica and posologia: else 400 VALIDATION_FAILED naming each missing member
   */
  @IsOptional()
  @IsObject({ message: 'must be an object with nombre, apellido, sexo and fecha_nacimiento' })
  @ValidateNested()
  @Type(() => PacienteDto)
  paciente?: PacienteDto;

  /** The patient's health coverage, which the pharmacy bills */
  @IsOptional()
  @IsObject({ message: 'must be an object with financiador and numero_afiliado' })
  @ValidateNested()
  @Type(() => CoberturaDto)
  cobertura?: CoberturaDto;

  /**
   * The diagnosis (never shown to dispensers: not in the verification by CUIR; the printed document shows its code only)
   */
  @IsOptional()
  @IsObject({ message: 'must be an object with codigo' })
  @ValidateNested()
  @Type(() => DiagnosticoDto)
  diagnostico?: DiagnosticoDto;
}
