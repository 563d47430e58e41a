import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `recetas`' CHECKs cost a registration PostgreSQL CPU, nearly all of it spent before any row is
 * tested: PostgreSQL rebuilds a table's CHECK expressions for every statement that writes to it
 * (ExecRelCheck reads each constraint's stored node text with stringToNode, then plans and
 * compiles it), and `recetas`' eleven are long, the item types' jsonpath the largest. The same
 * tests in the insert trigger, whose PL/pgSQL keeps its expressions prepared for the session,
 * cost almost nothing (figures: BENCHMARKS.md, "What each optimisation bought").
 *
 * So the triggers now refuse what the CHECKs refused, with the same error (check_violation,
 * the constraint's name, PostgreSQL's own message naming the month's partition), and the CHECKs
 * go (dropping one reads no row). The same move the event log made (AuditoriaEventoEnLinea):
 *
 * - `recetas_al_insertar` (BEFORE INSERT) tests the row, then writes its CUIR's row in
 *   `recetas_cuir` (as `recetas_cuir_registrar` did: RecetasCuirPorTrigger);
 * - `recetas_al_actualizar` (BEFORE UPDATE, every column now) refuses a new CUIR or id (as
 *   `recetas_cuir_inmutable` did), then tests the row. A CHECK, NOT VALID or not, tested every
 *   updated row; so does this.
 *
 * As in a CHECK, a test whose value is NULL passes. Both triggers are cloned onto every month's
 * partition, as the CHECKs were. Only the owner can disable a trigger, as only it could drop a
 * CHECK; the service's runtime role can do neither.
 */
export class RecetasReglasEnTrigger1795728800500 implements MigrationInterface {
  name = 'RecetasReglasEnTrigger1795728800500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION recetas_al_insertar() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
${refusals()}
${CUIR_FILA}
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE FUNCTION recetas_al_actualizar() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
${CUIR_INMUTABLE}
${refusals()}
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER recetas_al_insertar BEFORE INSERT ON recetas
                   FOR EACH ROW EXECUTE FUNCTION recetas_al_insertar()`);
    await q.query(`CREATE TRIGGER recetas_al_actualizar BEFORE UPDATE ON recetas
                   FOR EACH ROW EXECUTE FUNCTION recetas_al_actualizar()`);
    await q.query(`DROP TRIGGER recetas_cuir_registrar ON recetas`);
    await q.query(`DROP TRIGGER recetas_cuir_inmutable ON recetas`);
    await q.query(`DROP FUNCTION recetas_cuir_registrar()`);
    await q.query(`DROP FUNCTION recetas_cuir_inmutable()`);
    await q.query(
      `ALTER TABLE recetas ${Object.keys(RECETAS_REGLAS)
        .map((name) => `DROP CONSTRAINT ${name}`)
        .join(', ')}`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // NOT VALID: the rows written meanwhile passed the same tests, in the triggers.
    await q.query(
      `ALTER TABLE recetas ${Object.entries(RECETAS_REGLAS)
        .map(([name, test]) => `ADD CONSTRAINT ${name} CHECK (${test('')}) NOT VALID`)
        .join(', ')}`,
    );
    await q.query(`
      CREATE FUNCTION recetas_cuir_registrar() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
${CUIR_FILA}
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE FUNCTION recetas_cuir_inmutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
${CUIR_INMUTABLE}
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER recetas_cuir_registrar BEFORE INSERT ON recetas
                   FOR EACH ROW EXECUTE FUNCTION recetas_cuir_registrar()`);
    await q.query(`CREATE TRIGGER recetas_cuir_inmutable BEFORE UPDATE OF cuir, id_transaccion
                   ON recetas FOR EACH ROW EXECUTE FUNCTION recetas_cuir_inmutable()`);
    await q.query(`DROP TRIGGER recetas_al_insertar ON recetas`);
    await q.query(`DROP TRIGGER recetas_al_actualizar ON recetas`);
    await q.query(`DROP FUNCTION recetas_al_insertar()`);
    await q.query(`DROP FUNCTION recetas_al_actualizar()`);
  }
}

/** The CUIR's own row, written on every insert (RecetasCuirPorTrigger's, unchanged). */
const CUIR_FILA = `        INSERT INTO recetas_cuir (cuir, id_transaccion) VALUES (NEW.cuir, NEW.id_transaccion);`;

/** A prescription's CUIR and id never change (RecetasCuirPorTrigger's test, unchanged). */
const CUIR_INMUTABLE = `        IF NEW.cuir IS DISTINCT FROM OLD.cuir OR NEW.id_transaccion IS DISTINCT FROM OLD.id_transaccion THEN
          RAISE EXCEPTION 'a prescription''s CUIR and id never change (%)', OLD.id_transaccion
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;`;

/** Each CHECK's test, refused in a trigger with the CHECK's own error. */
function refusals(): string {
  return Object.entries(RECETAS_REGLAS)
    .map(
      ([name, test]) => `
        IF NOT (${test('NEW.')}) THEN
          RAISE EXCEPTION USING ERRCODE = 'check_violation', CONSTRAINT = '${name}',
            TABLE = TG_TABLE_NAME, SCHEMA = TG_TABLE_SCHEMA, MESSAGE = format(
              'new row for relation "%s" violates check constraint "%s"', TG_TABLE_NAME, '${name}');
        END IF;`,
    )
    .join('');
}

/**
 * The CHECKs as the migrations before this one left them (1763800003000, 1764000000000,
 * 1795728400000, 1795728600000, 1795728700000), of the row `r` (`NEW.` in the triggers), in
 * the order PostgreSQL tested them (by name). Exported for the test that compares them.
 */
export const RECETAS_REGLAS: Record<string, (r: string) => string> = {
  recetas_anulacion: (r) => `(${r}anulada_at IS NULL) = (${r}motivo_anulacion IS NULL)
    AND (${r}anulada_at IS NULL) = (${r}anulacion_estado IS NULL)`,
  recetas_anulacion_estado_check: (r) =>
    `${r}anulacion_estado IN ('PENDING', 'COMPLETED', 'FAILED', 'NOT_REQUIRED')`,
  recetas_cobertura: (
    r,
  ) => `(${r}cobertura_financiador IS NOT NULL OR ${r}cobertura_numero_afiliado IS NULL)
    AND (${r}cobertura_financiador IS NULL OR ${r}cobertura_numero_afiliado IS NOT NULL
         OR ${r}personales_cifrado IS NOT NULL)
    AND (${r}cobertura_financiador IS NOT NULL
         OR (${r}cobertura_codigo_rnos IS NULL AND ${r}cobertura_plan IS NULL))`,
  recetas_content_salt: (r) => `octet_length(${r}content_salt) = 16`,
  recetas_diagnostico: (r) =>
    `${r}diagnostico_codigo IS NOT NULL OR ${r}diagnostico_descripcion IS NULL`,
  recetas_documento: (r) => `(${r}documento_cifrado IS NULL) = (${r}documento_indice IS NULL)
    AND (${r}documento_paciente IS NOT NULL OR ${r}documento_cifrado IS NOT NULL)`,
  recetas_estado_check: (r) => `${r}estado IN ('PENDING', 'COMPLETED', 'FAILED')`,
  recetas_items_tipos: (r) => `jsonb_typeof(${r}items) = 'array'
    AND NOT jsonb_path_exists(${r}items, '$[*] ? (
          @.nombre.type() != "string" || @.cantidad.type() != "number"
       || @.codigo.type() != "string" || @.dci.type() != "string"
       || @.concentracion.type() != "string" || @.forma_farmaceutica.type() != "string"
       || @.presentacion.type() != "string" || @.posologia.type() != "string"
       || @.sustituible.type() != "boolean")')`,
  recetas_paciente: (r) => `${r}paciente_sexo IN ('F', 'M', 'X')
    AND ${r}paciente_fecha_nacimiento >= DATE '1900-01-01'
    AND (${r}paciente_nombre IS NULL) = (${r}paciente_apellido IS NULL)
    AND (${r}paciente_nombre IS NULL) = (${r}paciente_sexo IS NULL)
    AND (${r}paciente_nombre IS NULL) = (${r}paciente_fecha_nacimiento IS NULL)`,
  recetas_personales: (r) => `${r}personales_cifrado IS NULL
    OR (${r}paciente_nombre IS NULL AND ${r}paciente_apellido IS NULL AND ${r}paciente_sexo IS NULL
        AND ${r}paciente_fecha_nacimiento IS NULL AND ${r}cobertura_numero_afiliado IS NULL
        AND ${r}diagnostico_codigo IS NULL AND ${r}diagnostico_descripcion IS NULL)`,
  recetas_vigencia: (r) => `${r}vigencia_hasta >= ${r}vigencia_desde`,
};
