import { entityColumns } from '../common/sql/entity-columns.js';
import { MedicamentoEntity } from './entities/medicamento.entity.js';

/**
 * The catalogue sync's bulk writes: one JSON parameter per batch (jsonb_to_recordset), and one
 * anti-join for the rows gone upstream. The entity's columns but those the database fills.
 */
const COLUMNS = entityColumns(MedicamentoEntity).filter(
  (c) => !c.generated && c.column !== 'updated_at',
);
const names = COLUMNS.map((c) => c.column);
const changed = names.filter((c) => c !== 'code');

/**
 * Upserts `$1` (a JSON array of rows). An unchanged row is not rewritten (no dead tuple, no
 * index churn): only what changed upstream is touched. Answers one row per row written.
 */
export const UPSERT_SQL = `
  INSERT INTO medicamentos AS m (${names.join(', ')})
  SELECT ${names.join(', ')}
  FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS.map((c) => `${c.column} ${c.type}`).join(', ')})
  ON CONFLICT (code) DO UPDATE SET ${changed.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
    updated_at = now()
  WHERE (${changed.map((c) => `m.${c}`).join(', ')})
    IS DISTINCT FROM (${changed.map((c) => `EXCLUDED.${c}`).join(', ')})
  RETURNING (xmax = 0) AS inserted`;

/** Deletes the rows whose code is not in `$1`: an anti-join, not `code <> ALL($1)`, which would compare every row with every code. */
export const DELETE_GONE_SQL = `
  DELETE FROM medicamentos m
  WHERE NOT EXISTS (SELECT 1 FROM unnest($1::text[]) AS s(code) WHERE s.code = m.code)`;
