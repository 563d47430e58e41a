import { MigrationInterface, QueryRunner } from 'typeorm';
import { particionarTabla, retirarPrevia } from '../../database/particiones/particionar.js';
import { periodoDe, primerId } from '../../database/particiones/periodos.js';

/** Foreign keys inside the family and out of it, re-created on the partitioned tables. */
const FOREIGN_KEYS: ReadonlyArray<[table: string, name: string, definition: string]> = [
  ['recetas', 'recetas_client_id_fkey', 'FOREIGN KEY (client_id) REFERENCES api_clients (id)'],
  [
    'recetas',
    'recetas_cuir_fkey',
    'FOREIGN KEY (cuir, id_transaccion) REFERENCES recetas_cuir (cuir, id_transaccion)',
  ],
  [
    'dispensa_reservas',
    'dispensa_reservas_id_transaccion_fkey',
    'FOREIGN KEY (id_transaccion) REFERENCES recetas (id_transaccion)',
  ],
  [
    'dispensa_reservas',
    'dispensa_reservas_client_id_fkey',
    'FOREIGN KEY (client_id) REFERENCES api_clients (id)',
  ],
  [
    'dispensas',
    'dispensas_id_transaccion_fkey',
    'FOREIGN KEY (id_transaccion) REFERENCES recetas (id_transaccion)',
  ],
  ['dispensas', 'dispensas_client_id_fkey', 'FOREIGN KEY (client_id) REFERENCES api_clients (id)'],
  [
    'dispensas',
    'dispensas_reserva_id_fkey',
    'FOREIGN KEY (id_transaccion, reserva_id) REFERENCES dispensa_reservas (id_transaccion, id)',
  ],
  [
    'dispensa_items',
    'dispensa_items_id_transaccion_fkey',
    'FOREIGN KEY (id_transaccion) REFERENCES recetas (id_transaccion)',
  ],
  [
    'dispensa_items',
    'dispensa_items_id_dispensa_revertida_fkey',
    `FOREIGN KEY (id_transaccion, id_dispensa, revertida)
       REFERENCES dispensas (id_transaccion, id, revertida) ON UPDATE CASCADE ON DELETE CASCADE`,
  ],
];

/**
 * A prescription and everything that hangs off it (history, reservations, dispensations and
 * their items) partitioned by month, by the prescription's id (SPEC 10; docs/architecture.md,
 * "Partitions"): a prescription's rows all live in its month, so a read by id touches one
 * partition of each table, the database still holds "one dispensation per item" (the
 * partition key is in that unique index), and a month past retention drops as a whole.
 *
 * "One registration per CUIR" cannot be a unique index of a table partitioned by id: it moves
 * to `recetas_cuir` (cuir → id_transaccion, unpartitioned, two narrow indexes), which the
 * registration writes in its statement and every read by CUIR goes through; the composite
 * foreign key from `recetas` makes every prescription have its row there, so no path can
 * register a CUIR twice.
 *
 * History keeps no foreign key to `recetas`: checked through the partitioned table on every
 * insert, it cost a tenth of the registration's throughput (BENCHMARKS.md, session 11: ×1.11
 * without it, the other keys kept). A history row is only written in the registration's
 * statement, beside its prescription, or under the prescription's row lock, and a month's
 * history is dropped with the month's prescriptions.
 *
 * Every row is kept: each table is copied into its first partition (`_p0`, below every month),
 * ids unchanged. The months from now on are created by the service (ParticionesService), which
 * also moves the id sequence to the current month's first id.
 */
export class RecetasParticionadas1795728800000 implements MigrationInterface {
  name = 'RecetasParticionadas1795728800000';

  async up(q: QueryRunner): Promise<void> {
    const firstBound = primerId(periodoDe(new Date())).toString();
    const family = [
      'recetas',
      'receta_historial',
      'dispensa_reservas',
      'dispensas',
      'dispensa_items',
    ];
    const fks = (await q.query(
      `SELECT c.conname, c.conrelid::regclass::text AS tabla FROM pg_constraint c
        WHERE c.contype = 'f' AND (c.conrelid::regclass::text = ANY($1) OR c.confrelid::regclass::text = ANY($1))`,
      [family],
    )) as Array<{ conname: string; tabla: string }>;
    for (const fk of fks) await q.query(`ALTER TABLE ${fk.tabla} DROP CONSTRAINT ${fk.conname}`);

    await particionarTabla(q, {
      table: 'recetas',
      by: 'RANGE (id_transaccion)',
      primaryKey: ['id_transaccion'],
      firstBound,
      dropIndexes: ['recetas_cuir'],
    });
    await q.query(`
      CREATE TABLE recetas_cuir (
        cuir char(41) PRIMARY KEY,
        id_transaccion bigint NOT NULL,
        CONSTRAINT recetas_cuir_receta UNIQUE (cuir, id_transaccion)
      )`);
    await q.query(`INSERT INTO recetas_cuir (cuir, id_transaccion)
                   SELECT cuir, id_transaccion FROM recetas`);
    // The drop of a month deletes its CUIRs by id range: a BRIN index, as the rows arrive in id order.
    await q.query(
      `CREATE INDEX recetas_cuir_transaccion ON recetas_cuir USING brin (id_transaccion)`,
    );
    await particionarTabla(q, {
      table: 'receta_historial',
      by: 'RANGE (id_transaccion)',
      primaryKey: ['id_transaccion', 'id'],
      firstBound,
    });
    await particionarTabla(q, {
      table: 'dispensa_reservas',
      by: 'RANGE (id_transaccion)',
      primaryKey: ['id_transaccion', 'id'],
      firstBound,
    });
    await particionarTabla(q, {
      table: 'dispensas',
      by: 'RANGE (id_transaccion)',
      primaryKey: ['id_transaccion', 'id'],
      firstBound,
    });
    await q.query(
      `ALTER TABLE dispensas ADD CONSTRAINT dispensas_id_revertida_key UNIQUE (id_transaccion, id, revertida)`,
    );
    // A dispensation or reservation read by its own id alone (GET /v1/dispensas/{id}).
    await q.query(`CREATE INDEX dispensas_id ON dispensas (id)`);
    await q.query(`CREATE INDEX dispensa_reservas_id ON dispensa_reservas (id)`);
    await particionarTabla(q, {
      table: 'dispensa_items',
      by: 'RANGE (id_transaccion)',
      primaryKey: ['id_transaccion', 'id_dispensa', 'item'],
      firstBound,
    });
    for (const t of [...family].reverse()) await retirarPrevia(q, t);
    for (const [table, name, definition] of FOREIGN_KEYS)
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${definition}`);
  }

  down(): Promise<void> {
    // Un-partitioning would copy every row back; restore the backup taken before instead.
    return Promise.reject(
      new Error('RecetasParticionadas1795728800000 cannot be reverted: restore a backup'),
    );
  }
}
