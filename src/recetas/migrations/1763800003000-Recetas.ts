import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Prescriptions (one row per registration; items as jsonb, they are only ever read with their
 * prescription), their transaction history, and the Idempotency-Key store.
 */
export class Recetas1763800003000 implements MigrationInterface {
  name = 'Recetas1763800003000';

  async up(q: QueryRunner): Promise<void> {
    // The regulation's sequential transaction id.
    await q.query(`CREATE SEQUENCE recetas_id_transaccion_seq AS bigint START 1`);
    await q.query(`
      CREATE TABLE recetas (
        id_transaccion bigint PRIMARY KEY DEFAULT nextval('recetas_id_transaccion_seq'),
        client_id uuid NOT NULL REFERENCES api_clients (id),
        cuir char(41) NOT NULL,
        documento_paciente varchar(8) NOT NULL,
        matricula_profesional varchar(20) NOT NULL,
        refeps_id varchar(40),
        locacion varchar(200) NOT NULL,
        id_de_receta varchar(64),
        nombre_medicamento varchar(200),
        fecha_creacion timestamptz NOT NULL,
        items jsonb NOT NULL,
        estado text NOT NULL DEFAULT 'PENDING' CHECK (estado IN ('PENDING', 'COMPLETED', 'FAILED')),
        mensaje text NOT NULL,
        intentos integer NOT NULL DEFAULT 0,
        ultimo_intento_at timestamptz,
        proximo_intento_at timestamptz,
        ministerio_ref text,
        failure_reason text,
        completed_at timestamptz,
        idempotency_key uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER SEQUENCE recetas_id_transaccion_seq OWNED BY recetas.id_transaccion`);
    // A CUIR registers once, whoever registers it: the race-safe 409.
    await q.query(`CREATE UNIQUE INDEX recetas_cuir ON recetas (cuir)`);
    // Listing: one client's range, newest first with the id as tie-break (contract §3).
    await q.query(
      `CREATE INDEX recetas_client_fecha ON recetas (client_id, fecha_creacion DESC, id_transaccion DESC)`,
    );
    await q.query(
      `CREATE INDEX recetas_client_matricula_fecha ON recetas (client_id, matricula_profesional, fecha_creacion DESC, id_transaccion DESC)`,
    );
    await q.query(
      `CREATE INDEX recetas_client_documento_fecha ON recetas (client_id, documento_paciente, fecha_creacion DESC, id_transaccion DESC)`,
    );
    await q.query(
      `CREATE INDEX recetas_client_estado_fecha ON recetas (client_id, estado, fecha_creacion DESC, id_transaccion DESC)`,
    );

    await q.query(`
      CREATE TABLE receta_historial (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id_transaccion bigint NOT NULL REFERENCES recetas (id_transaccion) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        evento text NOT NULL,
        estado text NOT NULL,
        intento integer,
        resultado text,
        detalle text
      )`);
    await q.query(
      `CREATE INDEX receta_historial_transaccion ON receta_historial (id_transaccion, id)`,
    );

    await q.query(`
      CREATE TABLE idempotency_keys (
        client_id uuid NOT NULL,
        key uuid NOT NULL,
        request_hash char(64) NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        response_status integer,
        response_body jsonb,
        locked_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (client_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE idempotency_keys');
    await q.query('DROP TABLE receta_historial');
    await q.query('DROP TABLE recetas');
  }
}
