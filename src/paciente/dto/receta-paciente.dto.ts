import { ArrayMaxSize, IsInt, Max, Min } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import {
  CoberturaDto,
  DiagnosticoDto,
  PacienteDto,
  RecetaItemDto,
  RecetaVistaDto,
  SUSTITUIBLE_PROPERTY,
} from '../../recetas/recetas.public.js';

/** An item as registered (its content members when given), with what was dispensed of it. */
export class RecetaPacienteItemDto extends RecetaItemDto {
  @ApiProperty(SUSTITUIBLE_PROPERTY) declare sustituible: boolean;
  /**
   * Units dispensed so far (dispensations not reversed)
   * @example 0
   */
  @IsInt()
  @Min(0)
  @Max(999)
  dispensado: number;
}

/** What the citizen sees of a prescription issued to them (contract §8; never another's). */
export class RecetaPacienteDto extends RecetaVistaDto {
  @ArrayMaxSize(10) items: RecetaPacienteItemDto[];
  /** The patient, when registered */
  paciente?: PacienteDto;
  /** The coverage, when registered */
  cobertura?: CoberturaDto;
  /** The diagnosis, when registered */
  diagnostico?: DiagnosticoDto;
  /**
   * The printable prescription (PDF), with the same token
   * @example 'https://recetas.example/v1/paciente/recetas/00010001020102000000000000000000001234501/documento'
   */
  documento_url: string;
}
