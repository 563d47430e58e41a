import type { ContenidoColumnas } from './contenido/contenido.js';
import type { RecetaEntity } from './entities/receta.entity.js';

/**
 * A registered prescription as other modules read it (RecetasService's answers), read-only: the
 * rest of the row is recetas' own and may change without touching them.
 */
export type Receta = Readonly<
  Pick<
    RecetaEntity,
    | 'id_transaccion'
    | 'client_id'
    | 'cuir'
    | 'documento_paciente'
    | 'matricula_profesional'
    | 'refeps_id'
    | 'locacion'
    | 'id_de_receta'
    | 'nombre_medicamento'
    | 'fecha_creacion'
    | 'items'
    | 'estado'
    | 'vigencia_desde'
    | 'vigencia_hasta'
    | 'anulada_at'
    | 'motivo_anulacion'
    | 'content_salt'
    | keyof ContenidoColumnas
  >
>;
