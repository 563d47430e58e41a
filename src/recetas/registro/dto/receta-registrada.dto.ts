import { IsIn } from 'class-validator';
import { ESTADOS } from '../../receta-state.js';

/** The answer to a registration: the transaction started, awaiting the ministry. */
export class RecetaRegistradaDto {
  /**
   * Sequential transaction id (decimal string)
   * @example '1042'
   */
  id_transaccion: string;
  /** @example 'PENDING' */
  @IsIn(ESTADOS) estado: 'PENDING';
  /** @example 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud' */
  mensaje: string;
  /** @example '00010001020102000000000000000000001234501' */
  cuir: string;
  /** @example 'RX-2026-000123' */
  id_de_receta: string | null;
}
