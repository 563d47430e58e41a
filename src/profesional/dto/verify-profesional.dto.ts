import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, Matches, ValidateIf } from 'class-validator';
import { INDEC_JURISDICTION_CODES } from '../../common/indec-jurisdictions.js';

export class VerifyProfesionalDto {
  /**
   * Profesional's DNI: 7 or 8 digits, no dots
   * @example '25111222'
   */
  @IsDefined({ message: 'is required' })
  @Matches(/^[0-9]{7,8}$/, { message: 'must be a string of 7 or 8 digits' })
  documento: string;

  @ApiPropertyOptional({
    description:
      'INDEC jurisdiction code: answer with the licence held there (404 when there is none)',
    enum: INDEC_JURISDICTION_CODES,
    example: '02',
  })
  // Absent means "any jurisdiction"; an explicit null is refused like any other non-code.
  @ValidateIf((dto: VerifyProfesionalDto) => dto.jurisdiccion !== undefined)
  @IsIn(INDEC_JURISDICTION_CODES as string[], {
    message: 'must be one of the 24 INDEC jurisdiction codes (02, 06, … 94)',
  })
  jurisdiccion?: string;
}

export class ProfesionalVerificationDto {
  /** @example '25111222' */
  documento: string;
  /**
   * As the registry writes it (upper case)
   * @example 'LAURA'
   */
  nombre: string;
  /**
   * As the registry writes it (upper case)
   * @example 'GÓMEZ'
   */
  apellido: string;
  /**
   * The chosen licence
   * @example '123456'
   */
  matricula: string;
  /**
   * REFEPS ids of all the professional's licences, joined by commas
   * @example '8123456,8654321'
   */
  refeps_id: string;
  /**
   * INDEC code of the chosen licence's jurisdiction ('' if the registry's is unknown)
   * @example '02'
   */
  jurisdiccion: string;
  /**
   * First certified specialty of the chosen licence, '' when none
   * @example 'Clínica médica'
   */
  especialidad: string;
  /**
   * Whether the chosen licence is enabled
   * @example true
   */
  activo: boolean;
}
