import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CoberturaDto,
  DiagnosticoDto,
  PacienteDto,
  RecetaItemDto,
  SUSTITUIBLE_PROPERTY,
  ESTADOS_RECETA,
} from '../../recetas/recetas.public.js';

/** An item as registered (its content members when given), with what was dispensed of it. */
export class RecetaPacienteItemDto extends RecetaItemDto {
  @ApiProperty(SUSTITUIBLE_PROPERTY) declare sustituible: boolean;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 999,
    description: 'Units dispensed so far (dispensations not reversed)',
    example: 0,
  })
  dispensado: number;
}

/** What the citizen sees of a prescription issued to them (contract §8; never another's). */
export class RecetaPacienteDto {
  @ApiProperty({ example: '00010001020102000000000000000000001234501' }) cuir: string;
  @ApiProperty({ enum: ESTADOS_RECETA, example: 'VIGENTE' }) estado_receta: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T13:30:00.000Z' })
  fecha_creacion: string;
  @ApiProperty({ format: 'date', example: '2026-11-22' }) vigencia_desde: string;
  @ApiProperty({ format: 'date', example: '2026-12-21' }) vigencia_hasta: string;
  @ApiProperty({ example: '123456' }) matricula_profesional: string;
  @ApiProperty({ type: [RecetaPacienteItemDto], maxItems: 10 }) items: RecetaPacienteItemDto[];
  @ApiPropertyOptional({ type: PacienteDto, description: 'The patient, when registered' })
  paciente?: PacienteDto;
  @ApiPropertyOptional({ type: CoberturaDto, description: 'The coverage, when registered' })
  cobertura?: CoberturaDto;
  @ApiPropertyOptional({ type: DiagnosticoDto, description: 'The diagnosis, when registered' })
  diagnostico?: DiagnosticoDto;
  @ApiProperty({
    description: 'The printable prescription (PDF), with the same token',
    example:
      'https://recetas.example/v1/paciente/recetas/00010001020102000000000000000000001234501/documento',
  })
  documento_url: string;
}
