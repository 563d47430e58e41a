import { IsIn, IsOptional } from 'class-validator';
import { RecetaFiltrosQuery } from '../../recetas/recetas.public.js';
import { SUBTIPOS_RESTRINGIDOS, type SubtipoRestringido } from '../../recetas/recetas.service.js';

/** The authority's listing (SPEC 9.3): listar's range, page, licence and document, and the subtype. */
export class ListarFiscalizacionQuery extends RecetaFiltrosQuery {
  /** Only this CUIR subtype: 03 (bajo receta archivada) or 04 (legalmente restringido) */
  @IsOptional()
  @IsIn(SUBTIPOS_RESTRINGIDOS, { message: `must be one of ${SUBTIPOS_RESTRINGIDOS.join(', ')}` })
  subtipo?: SubtipoRestringido;
}
