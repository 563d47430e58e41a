import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC 9.2's personal members at rest (SPEC 10), sealed like the DNI: the patient's name,
 * surname, sex and birth date, the coverage's member number and the diagnosis, as ONE value
 * (`personales_cifrado`: AES-256-GCM of their compact JSON, the key id inside:
 * recetas/cifrado/datos-personales.ts), written by the service. The coverage's insurer, RNOS
 * code and plan stay in clear (they identify no patient).
 *
 * The plaintext columns stay (already nullable: each member is optional) for the rows
 * registered before; `npm run cli -- pacientes cifrar` seals them and clears them. So a row has
 * either its plaintext (before) or its seal, never both (`recetas_personales`); and the
 * coverage's rule changes: a coverage's member number is in clear or in the seal
 * (`recetas_cobertura`). `recetas_paciente` and `recetas_diagnostico` hold as they are (a
 * sealed row's plaintext is all null).
 *
 * The CHECKs are added NOT VALID, like 1795728400000's and 1795728600000's: every row already
 * there holds no seal and passed the old rule, which implies the new one, and validating would
 * scan the table under this migration's lock.
 */
export class DatosPersonalesCifrados1795728700000 implements MigrationInterface {
  name = 'DatosPersonalesCifrados1795728700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE recetas
        ADD COLUMN personales_cifrado bytea,
        DROP CONSTRAINT recetas_cobertura,
        ADD CONSTRAINT recetas_cobertura CHECK (
          (cobertura_financiador IS NOT NULL OR cobertura_numero_afiliado IS NULL)
          AND (cobertura_financiador IS NULL OR cobertura_numero_afiliado IS NOT NULL
               OR personales_cifrado IS NOT NULL)
          AND (cobertura_financiador IS NOT NULL
               OR (cobertura_codigo_rnos IS NULL AND cobertura_plan IS NULL))) NOT VALID,
        ADD CONSTRAINT recetas_personales CHECK (
          personales_cifrado IS NULL
          OR (paciente_nombre IS NULL AND paciente_apellido IS NULL AND paciente_sexo IS NULL
              AND paciente_fecha_nacimiento IS NULL AND cobertura_numero_afiliado IS NULL
              AND diagnostico_codigo IS NULL AND diagnostico_descripcion IS NULL)) NOT VALID`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Only once no row is sealed: a seal dropped here would lose its members (run on a
    // database where `pacientes cifrar` never ran, or after opening them by hand).
    await q.query(`
      ALTER TABLE recetas
        DROP CONSTRAINT recetas_personales,
        DROP CONSTRAINT recetas_cobertura,
        ADD CONSTRAINT recetas_cobertura CHECK (
          (cobertura_financiador IS NULL) = (cobertura_numero_afiliado IS NULL)
          AND (cobertura_financiador IS NOT NULL
               OR (cobertura_codigo_rnos IS NULL AND cobertura_plan IS NULL))) NOT VALID,
        DROP COLUMN personales_cifrado`);
  }
}
