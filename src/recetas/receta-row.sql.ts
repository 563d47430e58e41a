import { entitySelectList } from '../common/sql/entity-columns.js';
import { RecetaEntity } from './entities/receta.entity.js';

/**
 * A prescription's row by plain SQL in the entity's shape (entitySelectList), for the reads
 * every action on its life starts with: fixed strings, where TypeORM's find rebuilt its statement
 * on every call (most of a dispensation's CPU; BENCHMARKS.md).
 */
const RECETA_COLUMNS = entitySelectList(RecetaEntity);

export type RecetaKey = 'cuir' | 'id_transaccion';

// Through recetas_cuir: the id prunes the read to the prescription's month's partition.
const BY_CUIR = 'id_transaccion = (SELECT k.id_transaccion FROM recetas_cuir k WHERE k.cuir = $1)';

const rowSql = (where: string, lock: boolean) =>
  `SELECT ${RECETA_COLUMNS} FROM recetas WHERE ${where}${lock ? ' FOR UPDATE' : ''}`;

/** Built once, read and locked: the texts of prepared statements. */
const ROW_SQL: Record<RecetaKey, string[]> = {
  cuir: [false, true].map((lock) => rowSql(BY_CUIR, lock)),
  id_transaccion: [false, true].map((lock) => rowSql('id_transaccion = $1::bigint', lock)),
};

/** The row by its CUIR or id ($1); `lock`: FOR UPDATE, held until the transaction ends. */
export function recetaRowSql(key: RecetaKey, lock: boolean): string {
  return ROW_SQL[key][Number(lock)];
}
