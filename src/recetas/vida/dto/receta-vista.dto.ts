import { ApiProperty } from '@nestjs/swagger';
import { IsISO8601 } from 'class-validator';
import type { EstadoReceta } from '../estado-receta.js';
import {
  ESTADO_RECETA_PROPERTY,
  VIGENCIA_DESDE_PROPERTY,
  VIGENCIA_HASTA_PROPERTY,
} from './receta-vida.dto.js';

/**
 * What every view of a prescription by someone other than its owner starts with — the
 * citizen's (contract §8), the dispenser's verification (§7), the public page (§9.4): which
 * prescription, its state and window, and its prescriber. Each view extends it with what its
 * reader may see.
 */
export class RecetaVistaDto {
  /** @example '00010001020102000000000000000000001234501' */
  cuir: string;
  @ApiProperty(ESTADO_RECETA_PROPERTY) estado_receta: EstadoReceta;
  /** @example '2026-11-22T13:30:00.000Z' */
  @IsISO8601()
  fecha_creacion: string;
  @ApiProperty(VIGENCIA_DESDE_PROPERTY) vigencia_desde: string;
  @ApiProperty(VIGENCIA_HASTA_PROPERTY) vigencia_hasta: string;
  /**
   * The prescriber's licence
   * @example '123456'
   */
  matricula_profesional: string;
}
