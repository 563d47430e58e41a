import type { RecetaVistaDto } from './dto/receta-vista.dto.js';
import type { VidaReceta } from './receta-vida.js';

/** Pure: the part every view of a prescription shares (RecetaVistaDto), from its row and life. */
export const vistaDe = (
  r: { cuir: string; fecha_creacion: Date; matricula_profesional: string },
  vida: VidaReceta,
): RecetaVistaDto => ({
  cuir: r.cuir,
  estado_receta: vida.estado_receta,
  fecha_creacion: r.fecha_creacion.toISOString(),
  vigencia_desde: vida.vigencia_desde,
  vigencia_hasta: vida.vigencia_hasta,
  matricula_profesional: r.matricula_profesional,
});
