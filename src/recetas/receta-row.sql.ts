import { entitySelectList } from '../common/sql/entity-columns.js';
import { RecetaEntity } from './entities/receta.entity.js';

/**
 * A prescription's row read by plain SQL in the entity's own shape (RecetaEntity), for the
 * reads every action on a prescription's life starts with (by CUIR or id, and the row lock).
 * TypeORM's find builds its statement anew on every call, which measured as most of a
 * dispensation's CPU (BENCHMARKS.md, "What each optimisation bought"); these are fixed strings.
 * The column list is the entity's (entitySelectList: the casts give what its hydration gives,
 * the bigint id and the `date` columns as text).
 */
const RECETA_COLUMNS = entitySelectList(RecetaEntity);

export type RecetaKey = 'cuir' | 'id_transaccion';

const BY_CUIR = 'id_transaccion = (SELECT k.id_transaccion FROM recetas_cuir k WHERE k.cuir = $1)';

const rowSql = (where: string, lock: boolean) =>
  `SELECT ${RECETA_COLUMNS} FROM recetas WHERE ${where}${lock ? ' FOR UPDATE' : ''}`;

/** Built once: the same strings every call (they are prepared statements' texts). */
const ROW_SQL: Record<RecetaKey, Record<'read' | 'lock', string>> = {
  // Through recetas_cuir: the id prunes the read to the prescription's month's partition.
  cuir: { read: rowSql(BY_CUIR, false), lock: rowSql(BY_CUIR, true) },
  id_transaccion: {
    read: rowSql('id_transaccion = $1::bigint', false),
    lock: rowSql('id_transaccion = $1::bigint', true),
  },
};

/** The row by its CUIR or id ($1); `lock`: FOR UPDATE, held until the transaction ends. */
export function recetaRowSql(key: RecetaKey, lock: boolean): string {
  return ROW_SQL[key][lock ? 'lock' : 'read'];
}
