import { ApiProperty } from '@nestjs/swagger';
import { ESTADOS_RECETA } from '../receta-pdf-view.js';

export class RecetaPacienteItemDto {
  @ApiProperty({ example: 'Ibuprofeno 400 mg comprimidos' }) nombre: string;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 999, example: 2 })
  cantidad: number;
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
  @ApiProperty({
    description: 'The printable prescription (PDF), with the same token',
    example:
      'https://recetas.example/v1/paciente/recetas/00010001020102000000000000000000001234501/documento',
  })
  documento_url: string;
}
