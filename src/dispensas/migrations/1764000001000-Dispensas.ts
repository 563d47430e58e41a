import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reservations, dispensations and their items (contract §7). The database holds the rule that an
 * item is dispensed at most once: a partial unique index on (id_transaccion, item) over the
 * items whose dispensation is not reversed. The item row carries its dispensation's reversal
 * state, kept equal to it by a composite foreign key with ON UPDATE CASCADE (reversing a
 * dispensation sets `revertida` on it; PostgreSQL copies it onto its items, which leave the
 * index), so no code path can dispense an item twice or forget to free it.
 */
export class Dispensas1764000001000 implements MigrationInterface {
  name = 'Dispensas1764000001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dispensa_reservas (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        id_transaccion bigint NOT NULL REFERENCES recetas (id_transaccion),
        client_id uuid NOT NULL REFERENCES api_clients (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        -- Live while vence_at > now() and neither released nor consumed: no job lapses it.
        vence_at timestamptz NOT NULL,
        liberada_at timestamptz,
        consumida_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX dispensa_reservas_receta ON dispensa_reservas (id_transaccion, vence_at DESC)
         WHERE liberada_at IS NULL AND consumida_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE dispensas (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        id_transaccion bigint NOT NULL REFERENCES recetas (id_transaccion),
        client_id uuid NOT NULL REFERENCES api_clients (id),
        farmacia_cuit char(11) NOT NULL,
        farmacia_nombre varchar(200) NOT NULL,
        fecha_dispensa timestamptz NOT NULL,
        reserva_id uuid REFERENCES dispensa_reservas (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        revertida boolean NOT NULL DEFAULT false,
        revertida_at timestamptz,
        motivo_reversion varchar(200),
        CHECK (revertida = (revertida_at IS NOT NULL)),
        CHECK (revertida = (motivo_reversion IS NOT NULL)),
        -- The target of the items' (id_dispensa, revertida) foreign key.
        UNIQUE (id, revertida)
      )`);
    await q.query(`CREATE INDEX dispensas_receta ON dispensas (id_transaccion, created_at)`);
    await q.query(`
      CREATE TABLE dispensa_items (
        id_dispensa uuid NOT NULL,
        item smallint NOT NULL CHECK (item BETWEEN 1 AND 10),
        id_transaccion bigint NOT NULL REFERENCES recetas (id_transaccion),
        cantidad integer NOT NULL CHECK (cantidad >= 1),
        codigo varchar(32),
        sustituido boolean NOT NULL DEFAULT false,
        revertida boolean NOT NULL DEFAULT false,
        PRIMARY KEY (id_dispensa, item),
        FOREIGN KEY (id_dispensa, revertida) REFERENCES dispensas (id, revertida)
          ON UPDATE CASCADE ON DELETE CASCADE
      )`);
    // The single-dispensation rule (Decreto 98/2023, Annex, art. 1), held by the database.
    await q.query(
      `CREATE UNIQUE INDEX dispensa_items_una_vez ON dispensa_items (id_transaccion, item)
         WHERE NOT revertida`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE dispensa_items');
    await q.query('DROP TABLE dispensas');
    await q.query('DROP TABLE dispensa_reservas');
  }
}
