import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, Matches, ValidateIf } from 'class-validator';
import { INDEC_JURISDICTION_CODES } from '../../common/indec-jurisdictions.js';

export class VerifyProfesionalDto {
  @ApiProperty({
    description: "Profesional's DNI: 7 or 8 digits, no dots",
    example: '25111222',
    pattern: '^[0-9]{7,8}$',
    minLength: 7,
    maxLength: 8,
  })
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
  @ApiProperty({ example: '25111222' }) documento: string;
  @ApiProperty({ example: 'LAURA', description: 'As the registry writes it (upper case)' })
  nombre: string;
  @ApiProperty({ example: 'GÓMEZ', description: 'As the registry writes it (upper case)' })
  apellido: string;
  @ApiProperty({ example: '123456', description: 'The chosen licence' }) matricula: string;
  @ApiProperty({
    example: '8123456,8654321',
    description: "REFEPS ids of all the professional's licences, joined by commas",
  })
  refeps_id: string;
  @ApiProperty({
    example: '02',
    description:
      "INDEC code of the chosen licence's jurisdiction ('' if the registry's is unknown)",
  })
  jurisdiccion: string;
  @ApiProperty({
    example: 'Clínica médica',
    description: "First certified specialty of the chosen licence, '' when none",
  })
  especialidad: string;
  @ApiProperty({ example: true, description: 'Whether the chosen licence is enabled' })
  activo: boolean;
}
