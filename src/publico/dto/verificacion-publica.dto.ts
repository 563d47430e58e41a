import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ESTADOS_RECETA, type EstadoReceta } from '../../recetas/recetas.public.js';

export class ItemPublicoDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 10, example: 1 })
  item: number;
  @ApiProperty({ maxLength: 200, example: 'Ibuprofeno 400 mg comprimidos' })
  nombre: string;
  @ApiPropertyOptional({
    maxLength: 200,
    example: 'ibuprofeno',
    description: 'The generic name, when the prescriber gave one',
  })
  dci?: string;
  @ApiPropertyOptional({
    maxLength: 50,
    example: '400 mg',
    description: 'The concentration, when the prescriber gave one',
  })
  concentracion?: string;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 999, example: 2 })
  cantidad: number;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 999,
    example: 0,
    description: 'Units dispensed by dispensations not reversed',
  })
  dispensado: number;
}

/**
 * What anyone holding the printed link may see (contract §9.4): that the prescription is
 * registered here, its state and window, the prescriber, the items and the content hash —
 * never the patient's document, name, coverage or diagnosis.
 */
export class VerificacionPublicaDto {
  @ApiProperty({ example: '00010001020102000000000000000000001234501' })
  cuir: string;
  @ApiProperty({ enum: ESTADOS_RECETA, example: 'VIGENTE' })
  estado_receta: EstadoReceta;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T13:30:00Z' })
  fecha_creacion: string;
  @ApiProperty({ format: 'date', example: '2026-11-22' })
  vigencia_desde: string;
  @ApiProperty({ format: 'date', example: '2026-12-21' })
  vigencia_hasta: string;
  @ApiProperty({ example: '123456' })
  matricula_profesional: string;
  @ApiProperty({ example: '02', description: 'INDEC code of the CUIR’s jurisdiction' })
  jurisdiccion: string;
  @ApiProperty({ example: 'Ciudad Autónoma de Buenos Aires' })
  jurisdiccion_nombre: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'GÓMEZ, LAURA',
    description: 'The prescriber’s name from REFEPS, when known (null while it cannot be asked)',
  })
  profesional_nombre: string | null;
  @ApiProperty({ type: [ItemPublicoDto], maxItems: 10 })
  items: ItemPublicoDto[];
  @ApiProperty({
    pattern: '^[0-9a-f]{64}$',
    example: '9f2c4e1a7b3d5f60812a4c6e8b0d2f4618a3c5e7092b4d6f81a3c5e7092b4d6f',
  })
  content_sha256: string;
}
