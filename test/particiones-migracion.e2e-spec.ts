import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../migrations/index.js';
import { AuditSealer } from '../src/auditoria/audit-sealer.js';
import { AuditSealsRepository } from '../src/auditoria/audit-seals.repository.js';
import { AuditVerifier } from '../src/auditoria/audit-verifier.js';
import { AuditPurgeEntity } from '../src/auditoria/entities/audit-purge.entity.js';
import { AuditSealEntity } from '../src/auditoria/entities/audit-seal.entity.js';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/migrate.js';
import { periodoDe, primerId } from '../src/database/particiones/periodos.js';
import { MODULE_SLICES } from '../src/slices.js';
import { type FreshDatabase, freshDatabase } from './support/fresh-database.js';

/** The first migration of partitioning (the months' openings); those before make today's schema. */
const FIRST_OF_PARTITIONING = 1795728799000;
const epochOf = (m: { name: string }) => Number(/(\d{13})$/.exec(m.name)?.[1]);

const TABLES = [
  'recetas',
  'receta_historial',
  'dispensa_reservas',
  'dispensas',
  'dispensa_items',
  'verificaciones_cuir',
  'auditoria_eventos',
];

/**
 * The partitioning migrations on a database already in use (issue 30's acceptance): a database
 * migrated to the schema of before, filled with prescriptions and all that hangs off them and
 * with sealed events, then migrated on. Every row of every table is still there, byte for byte
 * (each row's text, every column, compared as a digest per table), in the first partition; the
 * event log still verifies; the ids go on from the current month.
 */
describe('partitioning a database in use', () => {
  let fresh: FreshDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    fresh = await freshDatabase('particionar');
    await runMigrations(
      fresh.url,
      MIGRATIONS.filter((m) => epochOf(m) < FIRST_OF_PARTITIONING),
    );
    ds = new DataSource({
      ...dataSourceOptions(fresh.url, 2),
      entities: [AuditSealEntity, AuditPurgeEntity],
    });
    await ds.initialize();
  }, 60_000);
  afterAll(async () => {
    await ds?.destroy();
    await fresh?.drop();
  });

  /** Per table: its row count and a digest of every row's text, in a fixed order. */
  const contents = async () => {
    const out: Record<string, { n: number; digest: string }> = {};
    for (const t of TABLES) {
      const [row] = await ds.query<Array<{ n: number; digest: string }>>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest
           FROM ${t} x`,
      );
      out[t] = row;
    }
    return out;
  };

  it('keeps every row as it was, in the first partition; the log verifies; ids go on from this month', async () => {
    const [{ id: client }] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO api_clients (name, key, secret_hash) VALUES ('antes', 'key-antes', 'x') RETURNING id`,
    );
    // 30 prescriptions with content (the DNI still in clear, as rows of before sealing are).
    await ds.query(
      `INSERT INTO recetas (client_id, cuir, documento_paciente, matricula_profesional, locacion,
         fecha_creacion, items, mensaje, vigencia_desde, vigencia_hasta, paciente_nombre,
         paciente_apellido, paciente_sexo, paciente_fecha_nacimiento, diagnostico_codigo)
       SELECT $1, lpad((7e40 + g)::numeric::text, 41, '0'), '30111222', '123456', 'Consultorio',
              now() - g * interval '1 day', jsonb_build_array(jsonb_build_object('nombre', 'Ibuprofeno',
              'cantidad', 2, 'codigo', '1336421')), 'Transacción iniciada', current_date,
              current_date + 29, 'Ana', 'Pérez', 'F', '1980-05-01', 'J06.9'
         FROM generate_series(1, 30) g`,
      [client],
    );
    await ds.query(
      `INSERT INTO receta_historial (id_transaccion, evento, estado, resultado)
       SELECT id_transaccion, e, 'PENDING', 'accepted' FROM recetas, unnest(ARRAY['REGISTRADA', 'ENVIADA']) e`,
    );
    await ds.query(
      `INSERT INTO dispensa_reservas (id_transaccion, client_id, vence_at, consumida_at)
       SELECT id_transaccion, client_id, now() + interval '1 hour', now()
         FROM recetas ORDER BY id_transaccion LIMIT 5`,
    );
    await ds.query(
      `INSERT INTO dispensas (id_transaccion, client_id, farmacia_cuit, farmacia_nombre, fecha_dispensa, reserva_id)
       SELECT r.id_transaccion, r.client_id, '30712345671', 'Farmacia Central', now(), r.id
         FROM dispensa_reservas r`,
    );
    await ds.query(
      `INSERT INTO dispensa_items (id_dispensa, item, id_transaccion, cantidad, codigo)
       SELECT id, 1, id_transaccion, 2, '1336421' FROM dispensas`,
    );
    await ds.query(
      `INSERT INTO verificaciones_cuir (verifier_client_id, cuir, id_transaccion, owner_client_id, found)
       SELECT client_id, cuir, id_transaccion, client_id, true FROM recetas LIMIT 10`,
    );
    await ds.query(
      `INSERT INTO auditoria_eventos (tipo, cuir, id_transaccion, actor, resultado, request_id)
       SELECT 'registro', cuir, id_transaccion, client_id::text, 'ok', 'antes-' || id_transaccion
         FROM recetas`,
    );
    // Sealed before: a seal covers transactions below the cluster's oldest running one.
    const sealer = new AuditSealer(new AuditSealsRepository(ds));
    for (let i = 0; i < 100; i++) {
      const [{ n }] = await ds.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM auditoria_eventos e
          WHERE NOT EXISTS (SELECT 1 FROM auditoria_sellos s WHERE s.ids @> e.id)`,
      );
      if (n === 0) break;
      await sealer.sealNow();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const before = await contents();
    expect(before.recetas.n).toBe(30);
    expect(before.auditoria_eventos.n).toBe(30);

    const run = await runMigrations(fresh.url, MIGRATIONS, {
      partitioned: MODULE_SLICES.flatMap((s) => s.partitionedTables ?? []),
    });
    expect(run.applied).toEqual(
      expect.arrayContaining([
        'RecetasParticionadas1795728800000',
        'AuditoriaParticionada1795728800100',
        'VerificacionesParticionadas1795728800200',
      ]),
    );
    expect(await contents()).toEqual(before);
    for (const t of TABLES) {
      const [{ kind, first }] = await ds.query<Array<{ kind: string; first: number }>>(
        `SELECT (SELECT relkind::text FROM pg_class WHERE relname = $1) AS kind,
                (SELECT count(*)::int FROM ${t}_p0) AS first`,
        [t],
      );
      // Verifications are cut by their own time: this month's went to this month's partition.
      const inFirst = t === 'verificaciones_cuir' ? 0 : before[t].n;
      expect({ t, kind, first }).toEqual({ t, kind: 'p', first: inFirst });
    }
    // Every registered CUIR has its one row, and the foreign keys hold the copied rows.
    const [{ cuirs }] = await ds.query<Array<{ cuirs: number }>>(
      `SELECT count(*)::int AS cuirs FROM recetas_cuir k JOIN recetas r USING (cuir, id_transaccion)`,
    );
    expect(cuirs).toBe(30);
    const [{ fks }] = await ds.query<Array<{ fks: number }>>(
      `SELECT count(*)::int AS fks FROM pg_constraint
        WHERE contype = 'f' AND conparentid = 0
          AND conrelid::regclass::text IN ('dispensas', 'dispensa_items', 'dispensa_reservas', 'receta_historial', 'recetas')`,
    );
    // Those of dispensations, items and reservations, and recetas' to its client; history keeps
    // none, and recetas' CUIR row is written by its insert trigger (RecetasCuirPorTrigger,
    // RecetasReglasEnTrigger) instead.
    expect(fks).toBe(8);
    const triggers = await ds.query<Array<{ tgname: string }>>(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'recetas'::regclass AND NOT tgisinternal ORDER BY tgname`,
    );
    expect(triggers.map((x) => x.tgname)).toEqual(['recetas_al_actualizar', 'recetas_al_insertar']);
    // The copied events still match their seals.
    const report = await new AuditVerifier(new AuditSealsRepository(ds)).verify();
    expect(report).toMatchObject({ ok: true, problemas: [], eventos: 30 });
    // New ids start at this month's first.
    const [{ next }] = await ds.query<Array<{ next: string }>>(
      `SELECT nextval('recetas_id_transaccion_seq')::text AS next`,
    );
    expect(next).toBe(primerId(periodoDe(new Date())).toString());
  }, 120_000);
});
