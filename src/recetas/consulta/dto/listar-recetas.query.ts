import { ID_TRANSACCION } from '../../../common/validation/patterns.js';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { RecetaFiltrosQuery } from './receta-filtros.query.js';
import { ESTADOS } from '../../receta-state.js';
import type { Estado } from '../../receta-state.js';

export class ListarRecetasQuery extends RecetaFiltrosQuery {
  /**
   * Only prescriptions whose ministry transaction is in this state (`estado`: PENDING, COMPLETED or FAILED; not `estado_receta`, which the listing's summary does not carry)
   */
  @IsOptional()
  @IsIn(ESTADOS, { message: `must be one of ${ESTADOS.join(', ')}` })
  estado?: Estado;

  /**
   * Snapshot watermark for stable paging: pass the `as_of` returned with page 1 when fetching the next pages, and rows registered after it are left out, so pages stay disjoint and complete while new prescriptions arrive.
   * @example '1042'
   */
  @IsOptional()
  @Matches(ID_TRANSACCION, { message: 'must be an id_transaccion (digits)' })
  as_of?: string;
}
