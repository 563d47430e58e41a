import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The patient's document at rest (SPEC 10): sealed (`documento_cifrado`, AES-256-GCM, the key
 * id inside: recetas/cifrado/datos-paciente.ts) and found by its blind index
 * (`documento_indice`, a keyed HMAC), both written by the service. The plaintext column stays,
 * nullable, for the rows registered before; `npm run cli -- pacientes cifrar` seals them and
 * clears it. The listing's index by document moves to the blind index, and the plaintext's
 * becomes partial: it indexes only the rows still waiting for the command, so it empties.
 * The CHECK is added NOT VALID: every row already there has its plaintext (the column was NOT
 * NULL), and validating would scan the table under this migration's lock.
 */
export class DatosPacienteCifrados1795728600000 implements MigrationInterface {
  name = 'DatosPacienteCifrados1795728600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE recetas
        ALTER COLUMN documento_paciente DROP NOT NULL,
        ADD COLUMN documento_cifrado bytea,
        ADD COLUMN documento_indice bytea,
        ADD CONSTRAINT recetas_documento CHECK (
          (documento_cifrado IS NULL) = (documento_indice IS NULL)
          AND (documento_paciente IS NOT NULL OR documento_cifrado IS NOT NULL)) NOT VALID`);
    await q.query(`DROP INDEX recetas_client_documento_fecha`);
    await q.query(
      `CREATE INDEX recetas_client_documento_fecha ON recetas (client_id, documento_indice, fecha_creacion DESC, id_transaccion DESC)`,
    );
    await q.query(
      `CREATE INDEX recetas_client_documento_claro_fecha ON recetas (client_id, documento_paciente, fecha_creacion DESC, id_transaccion DESC) WHERE documento_paciente IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX recetas_client_documento_claro_fecha`);
    await q.query(`DROP INDEX recetas_client_documento_fecha`);
    await q.query(
      `CREATE INDEX recetas_client_documento_fecha ON recetas (client_id, documento_paciente, fecha_creacion DESC, id_transaccion DESC)`,
    );
    await q.query(`
      ALTER TABLE recetas
        DROP CONSTRAINT recetas_documento,
        DROP COLUMN documento_indice,
        DROP COLUMN documento_cifrado`);
  }
}
