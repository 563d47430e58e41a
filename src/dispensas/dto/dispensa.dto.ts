import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ESTADO_RECETA_PROPERTY,
  FarmaciaDto,
  type EstadoReceta,
} from '../../recetas/recetas.public.js';

export class DispensaItemDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 10,
    description: 'Position in the prescription, from 1',
  })
  item: number;
  @ApiProperty({ example: 'Ibuprofeno 400 mg comprimidos' }) nombre: string;
  @ApiPropertyOptional({
    description: 'The generic name prescribed, when the prescriber gave one',
    maxLength: 200,
    example: 'ibuprofeno',
  })
  dci?: string;
  @ApiPropertyOptional({
    description: 'The catalogue code prescribed, when the prescriber gave one',
    maxLength: 32,
    example: '1336421',
  })
  codigo_prescrito?: string;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 999, example: 2 })
  cantidad_prescrita: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 999, example: 2 })
  cantidad_dispensada: number;
  @ApiPropertyOptional({ description: 'Catalogue code dispensed', example: '1336421' })
  codigo?: string;
  @ApiProperty({ description: 'Another brand or a generic was given' }) sustituido: boolean;
}

export class DispensaDto {
  @ApiProperty({ format: 'uuid', example: '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b' })
  id_dispensa: string;
  @ApiProperty({ example: '00010001020102000000000000000000001234501' }) cuir: string;
  @ApiProperty({
    ...ESTADO_RECETA_PROPERTY,
    description: `The prescription's state now (after the dispensation, in its answer). ${ESTADO_RECETA_PROPERTY.description}`,
  })
  estado_receta: EstadoReceta;
  @ApiProperty({ format: 'date-time' }) fecha_dispensa: string;
  @ApiProperty({ type: FarmaciaDto }) farmacia: FarmaciaDto;
  @ApiProperty({ type: [DispensaItemDto], maxItems: 10 }) items: DispensaItemDto[];
  @ApiProperty({ format: 'date-time', description: 'When the service recorded it' })
  registrada_at: string;
  @ApiProperty({ description: 'Reversed: its items are dispensable again' }) revertida: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revertida_at: string | null;
  @ApiProperty({ nullable: true, type: String }) motivo_reversion: string | null;
}
