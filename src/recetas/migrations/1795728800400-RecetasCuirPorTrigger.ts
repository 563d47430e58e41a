import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "One registration per CUIR" across the months' partitions, held by the database at less cost:
 * `recetas_cuir`'s row is now written by a trigger on every insert into `recetas` (cloned onto
 * every partition, as the foreign key was), instead of by the registration's statement and then
 * checked by a composite foreign key. No path can insert a prescription without taking
 * its CUIR's row, the primary key still refuses a second one (`recetas_cuir_pkey`, the 409 of
 * a second registration), and a second trigger refuses an update of a prescription's CUIR or id,
 * which the key also forbade. What goes: the key's row lock (a WAL record a registration) and
 * `recetas_cuir_receta`, the second unique index only the key needed. At ten clients the
 * database registers 8.7 % more a second (BENCHMARKS.md, session 14).
 */
export class RecetasCuirPorTrigger1795728800400 implements MigrationInterface {
  name = 'RecetasCuirPorTrigger1795728800400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION recetas_cuir_registrar() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO recetas_cuir (cuir, id_transaccion) VALUES (NEW.cuir, NEW.id_transaccion);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE FUNCTION recetas_cuir_inmutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.cuir IS DISTINCT FROM OLD.cuir OR NEW.id_transaccion IS DISTINCT FROM OLD.id_transaccion THEN
          RAISE EXCEPTION 'a prescription''s CUIR and id never change (%)', OLD.id_transaccion
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER recetas_cuir_registrar BEFORE INSERT ON recetas
                   FOR EACH ROW EXECUTE FUNCTION recetas_cuir_registrar()`);
    await q.query(`CREATE TRIGGER recetas_cuir_inmutable BEFORE UPDATE OF cuir, id_transaccion
                   ON recetas FOR EACH ROW EXECUTE FUNCTION recetas_cuir_inmutable()`);
    await q.query(`ALTER TABLE recetas DROP CONSTRAINT recetas_cuir_fkey`);
    await q.query(`ALTER TABLE recetas_cuir DROP CONSTRAINT recetas_cuir_receta`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE recetas_cuir ADD CONSTRAINT recetas_cuir_receta UNIQUE (cuir, id_transaccion)`,
    );
    await q.query(`ALTER TABLE recetas ADD CONSTRAINT recetas_cuir_fkey
                   FOREIGN KEY (cuir, id_transaccion) REFERENCES recetas_cuir (cuir, id_transaccion)`);
    await q.query(`DROP TRIGGER recetas_cuir_inmutable ON recetas`);
    await q.query(`DROP TRIGGER recetas_cuir_registrar ON recetas`);
    await q.query(`DROP FUNCTION recetas_cuir_inmutable()`);
    await q.query(`DROP FUNCTION recetas_cuir_registrar()`);
  }
}
