import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The prescription's content (SPEC 9.2): the patient, the coverage and the diagnosis in typed
 * columns, nullable (each is optional), with the rules a row must keep whoever writes it; the
 * item members stay in the items' JSON (read only with their prescription), where a CHECK
 * holds their types. `content_salt` is drawn per registration from now on (see
 * receta-content-hash.ts); older rows keep null and the hash they always had.
 *
 * Every constraint is added NOT VALID: it holds for every row written from now on, and the
 * rows already there hold none of the new columns (all NULL) and items written by validating
 * code, so validating them would only scan the whole table under this migration's lock.
 */
export class RecetaContenido1795728400000 implements MigrationInterface {
  name = 'RecetaContenido1795728400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE recetas
        ADD COLUMN paciente_nombre varchar(100),
        ADD COLUMN paciente_apellido varchar(100),
        ADD COLUMN paciente_sexo char(1),
        ADD COLUMN paciente_fecha_nacimiento date,
        ADD COLUMN cobertura_financiador varchar(100),
        ADD COLUMN cobertura_numero_afiliado varchar(30),
        ADD COLUMN cobertura_codigo_rnos char(6),
        ADD COLUMN cobertura_plan varchar(50),
        ADD COLUMN diagnostico_codigo varchar(8),
        ADD COLUMN diagnostico_descripcion varchar(200),
        ADD COLUMN content_salt bytea`);
    await q.query(`
      ALTER TABLE recetas
        ADD CONSTRAINT recetas_paciente CHECK (
          paciente_sexo IN ('F', 'M', 'X')
          AND paciente_fecha_nacimiento >= DATE '1900-01-01'
          AND (paciente_nombre IS NULL) = (paciente_apellido IS NULL)
          AND (paciente_nombre IS NULL) = (paciente_sexo IS NULL)
          AND (paciente_nombre IS NULL) = (paciente_fecha_nacimiento IS NULL)) NOT VALID,
        ADD CONSTRAINT recetas_cobertura CHECK (
          (cobertura_financiador IS NULL) = (cobertura_numero_afiliado IS NULL)
          AND (cobertura_financiador IS NOT NULL
               OR (cobertura_codigo_rnos IS NULL AND cobertura_plan IS NULL))) NOT VALID,
        ADD CONSTRAINT recetas_diagnostico CHECK (
          diagnostico_codigo IS NOT NULL OR diagnostico_descripcion IS NULL) NOT VALID,
        ADD CONSTRAINT recetas_content_salt CHECK (octet_length(content_salt) = 16) NOT VALID,
        ADD CONSTRAINT recetas_items_tipos CHECK (
          jsonb_typeof(items) = 'array'
          AND NOT jsonb_path_exists(items, '$[*] ? (
                @.nombre.type() != "string" || @.cantidad.type() != "number"
             || @.codigo.type() != "string" || @.dci.type() != "string"
             || @.concentracion.type() != "string" || @.forma_farmaceutica.type() != "string"
             || @.presentacion.type() != "string" || @.posologia.type() != "string"
             || @.sustituible.type() != "boolean")')) NOT VALID`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE recetas
        DROP CONSTRAINT recetas_items_tipos,
        DROP CONSTRAINT recetas_content_salt,
        DROP CONSTRAINT recetas_diagnostico,
        DROP CONSTRAINT recetas_cobertura,
        DROP CONSTRAINT recetas_paciente,
        DROP COLUMN content_salt,
        DROP COLUMN diagnostico_descripcion,
        DROP COLUMN diagnostico_codigo,
        DROP COLUMN cobertura_plan,
        DROP COLUMN cobertura_codigo_rnos,
        DROP COLUMN cobertura_numero_afiliado,
        DROP COLUMN cobertura_financiador,
        DROP COLUMN paciente_fecha_nacimiento,
        DROP COLUMN paciente_sexo,
        DROP COLUMN paciente_apellido,
        DROP COLUMN paciente_nombre`);
  }
}
