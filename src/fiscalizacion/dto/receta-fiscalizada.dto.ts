import { ArrayMaxSize, IsISO8601, IsIn, IsUUID, Matches } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { CUIR_PATTERN } from '../../cuir/cuir.public.js';
import {
  DiagnosticoDto,
  PacienteDto,
  ANULACION_PROPERTY,
  ESTADO_RECETA_PROPERTY,
  FarmaciaDto,
  RecetaItemDetalleDto,
  VIGENCIA_DESDE_PROPERTY,
  VIGENCIA_HASTA_PROPERTY,
  type AnulacionDto,
  type EstadoReceta,
} from '../../recetas/recetas.public.js';
import { SUBTIPOS_RESTRINGIDOS } from '../../recetas/recetas.service.js';

const int = (minimum: number, maximum: number, description?: string) => ({
  type: 'integer' as const,
  format: 'int32',
  minimum,
  maximum,
  ...(description ? { description } : {}),
});

export class DispensaFiscalizadaItemDto {
  @ApiProperty(int(1, 10, 'Position in the prescription, from 1')) item: number;
  @ApiProperty(int(1, 999, 'Units dispensed')) cantidad_dispensada: number;
  /**
   * Catalogue code dispensed, when the pharmacy gave one
   * @example '1336421'
   */
  codigo: string | null;
  /** Another brand or a generic was given */
  sustituido: boolean;
}

export class DispensaFiscalizadaDto {
  /** @example '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b' */
  @IsUUID('all')
  id_dispensa: string;
  /** @example '2026-11-23T13:25:00.000Z' */
  @IsISO8601()
  fecha_dispensa: string;
  farmacia: FarmaciaDto;
  @ArrayMaxSize(10)
  items: DispensaFiscalizadaItemDto[];
  /** Reversed by the pharmacy within its window */
  revertida: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', example: null })
  revertida_at: string | null;
}

/** A restricted prescription as its jurisdiction's health authority reads it (SPEC 9.3). */
export class RecetaFiscalizadaDto {
  /** @example '00010001060103000000000000000000001234501' */
  @Matches(new RegExp(CUIR_PATTERN))
  cuir: string;
  /** @example '1042' */
  id_transaccion: string;
  /** The CUIR subtype: 03 bajo receta archivada, 04 legalmente restringido */
  @IsIn(SUBTIPOS_RESTRINGIDOS)
  subtipo: string;
  @IsISO8601() fecha_creacion: string;
  /** @example '30111222' */
  documento_paciente: string;
  /**
   * The patient: required when a restricted prescription is registered, so absent only from one registered before that rule
   */
  paciente?: PacienteDto;
  /** The diagnosis, or null when none was registered */
  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      codigo: { type: 'string', description: 'ICD-10', example: 'F41.1' },
      descripcion: { type: 'string', example: 'Trastorno de ansiedad generalizada' },
    },
    required: ['codigo'],
    example: null,
  })
  diagnostico: DiagnosticoDto | null;
  /** @example '123456' */
  matricula_profesional: string;
  /**
   * INDEC code of the CUIR jurisdiction
   * @example '06'
   */
  jurisdiccion: string;
  @ApiProperty(ESTADO_RECETA_PROPERTY) estado_receta: EstadoReceta;
  @ApiProperty(VIGENCIA_DESDE_PROPERTY) vigencia_desde: string;
  @ApiProperty(VIGENCIA_HASTA_PROPERTY) vigencia_hasta: string;
  /** The registered items (SPEC 9.2 members), each with the units dispensed */
  @ArrayMaxSize(10)
  items: RecetaItemDetalleDto[];
  @ApiProperty(ANULACION_PROPERTY) anulacion: AnulacionDto | null;
  /** Every dispensation, oldest first, reversed ones included */
  dispensas: DispensaFiscalizadaDto[];
}

export class ListadoFiscalizacionDto {
  @ApiProperty(int(0, 2_147_483_647, 'Every match of the filters, not just this page'))
  total: number;
  @ApiProperty(int(1, 1_000_000)) page: number;
  @ApiProperty(int(1, 200)) per_page: number;
  /** Oldest first */
  @ArrayMaxSize(200)
  items: RecetaFiscalizadaDto[];
}
