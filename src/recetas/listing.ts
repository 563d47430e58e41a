import type { ListadoRecetasDto } from './dto/receta-responses.dto.js';
import type { ListedPage } from './recetas.repository.js';

/**
 * A listing page's answer: `total` exact up to `countCap` matches, else capped with
 * `total_exact: false`; each item projected to the API's summary fields. No dependencies beyond
 * its types, so the bench's baseline and floor answer exactly as the service does.
 */
export function listingAnswer(
  listed: ListedPage,
  paging: { page: number; perPage: number },
  countCap: number,
): ListadoRecetasDto {
  const exact = listed.counted <= countCap;
  return {
    total: exact ? listed.counted : countCap,
    total_exact: exact,
    page: paging.page,
    per_page: paging.perPage,
    items: listed.items.map((r) => ({
      id_transaccion: r.id_transaccion,
      id_de_receta: r.id_de_receta,
      cuir: r.cuir,
      fecha_creacion: r.fecha_creacion.toISOString(),
      matricula_profesional: r.matricula_profesional,
      documento_paciente: r.documento_paciente,
      estado: r.estado,
    })),
    as_of: listed.asOf,
  };
}
