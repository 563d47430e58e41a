import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The prescription's life (contract §7): its validity window and its cancellation, with the state
 * of the ministry's notice of it. Existing rows get the default window: from the date of
 * fecha_creacion in Argentina time (UTC−03:00, fixed), 30 days for medicines (CUIR type 01,
 * digits 11–12) and 60 for the rest — VIGENCIA_DIAS_* are not known to a migration.
 */
export class RecetaVida1764000000000 implements MigrationInterface {
  name = 'RecetaVida1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE recetas
        ADD COLUMN vigencia_desde date,
        ADD COLUMN vigencia_hasta date,
        ADD COLUMN anulada_at timestamptz,
        ADD COLUMN motivo_anulacion varchar(200),
        ADD COLUMN anulacion_estado text
          CHECK (anulacion_estado IN ('PENDING', 'COMPLETED', 'FAILED', 'NOT_REQUIRED')),
        ADD COLUMN anulacion_intentos integer NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE recetas SET
        vigencia_desde = ((fecha_creacion AT TIME ZONE 'UTC') - interval '3 hours')::date,
        vigencia_hasta = ((fecha_creacion AT TIME ZONE 'UTC') - interval '3 hours')::date
          + CASE WHEN substr(cuir, 11, 2) = '01' THEN 29 ELSE 59 END`);
    await q.query(`
      ALTER TABLE recetas
        ALTER COLUMN vigencia_desde SET NOT NULL,
        ALTER COLUMN vigencia_hasta SET NOT NULL,
        ADD CONSTRAINT recetas_vigencia CHECK (vigencia_hasta >= vigencia_desde),
        ADD CONSTRAINT recetas_anulacion
          CHECK ((anulada_at IS NULL) = (motivo_anulacion IS NULL)
             AND (anulada_at IS NULL) = (anulacion_estado IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE recetas
        DROP CONSTRAINT recetas_anulacion,
        DROP CONSTRAINT recetas_vigencia,
        DROP COLUMN anulacion_intentos,
        DROP COLUMN anulacion_estado,
        DROP COLUMN motivo_anulacion,
        DROP COLUMN anulada_at,
        DROP COLUMN vigencia_hasta,
        DROP COLUMN vigencia_desde`);
  }
}
