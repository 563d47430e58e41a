/**
 * A prescription's row read by plain SQL in the entity's own shape (RecetaEntity), for the
 * reads every action on a prescription's life starts with (by CUIR or id, and the row lock).
 * TypeORM's find builds its statement anew on every call, which measured as most of a
 * dispensation's CPU (BENCHMARKS.md, issue 18); these are fixed strings. The casts give what
 * the entity's hydration gives: the bigint id and the `date` columns as text.
 */
const RECETA_COLUMNS = `id_transaccion::text AS id_transaccion, client_id, cuir,
  documento_paciente, matricula_profesional, refeps_id, locacion, id_de_receta,
  nombre_medicamento, fecha_creacion, items, estado, mensaje, intentos, ultimo_intento_at,
  proximo_intento_at, ministerio_ref, failure_reason, completed_at, idempotency_key,
  vigencia_desde::text AS vigencia_desde, vigencia_hasta::text AS vigencia_hasta, anulada_at,
  motivo_anulacion, anulacion_estado, anulacion_intentos, created_at, updated_at,
  paciente_nombre, paciente_apellido, paciente_sexo,
  paciente_fecha_nacimiento::text AS paciente_fecha_nacimiento, cobertura_financiador,
  cobertura_numero_afiliado, cobertura_codigo_rnos, cobertura_plan, diagnostico_codigo,
  diagnostico_descripcion, content_salt`;

export type RecetaKey = 'cuir' | 'id_transaccion';

const rowSql = (where: string, lock: boolean) =>
  `SELECT ${RECETA_COLUMNS} FROM recetas WHERE ${where}${lock ? ' FOR UPDATE' : ''}`;

/** Built once: the same strings every call (they are prepared statements' texts). */
const ROW_SQL: Record<RecetaKey, Record<'read' | 'lock', string>> = {
  cuir: { read: rowSql('cuir = $1', false), lock: rowSql('cuir = $1', true) },
  id_transaccion: {
    read: rowSql('id_transaccion = $1::bigint', false),
    lock: rowSql('id_transaccion = $1::bigint', true),
  },
};

/** The row by its CUIR or id ($1); `lock`: FOR UPDATE, held until the transaction ends. */
export function recetaRowSql(key: RecetaKey, lock: boolean): string {
  return ROW_SQL[key][lock ? 'lock' : 'read'];
}
