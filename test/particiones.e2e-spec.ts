import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import {
  asegurarEnTransaccion,
  asegurarParticiones,
  MESES_ADELANTE,
} from '../src/database/particiones/particiones.js';
import { ParticionesScheduler } from '../src/database/particiones/particiones.scheduler.js';
import {
  periodoDe,
  primerId,
  primerInstante,
  type Periodo,
  siguiente,
  sufijo,
} from '../src/database/particiones/periodos.js';
import { MODULE_SLICES } from '../src/slices.js';
import { runCli } from './support/cli.js';
import { createClient, TestClient } from './support/clients.js';
import { dispensaBody, dispensasApi, PHARMACY_SCOPES } from './support/dispensas.js';
import { type FreshDatabase, freshDatabase } from './support/fresh-database.js';
import {
  issueCuir,
  newCuir,
  postRegistration,
  register,
  registrationBody,
} from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const TABLES = MODULE_SLICES.flatMap((s) => s.partitionedTables ?? []);
const FAMILY = ['recetas', 'receta_historial', 'dispensa_reservas', 'dispensas', 'dispensa_items'];

/**
 * Partitions by month (SPEC 10; docs/architecture.md, "Partitions") on a database of the suite's
 * own, since it moves the id sequences months ahead: the tables as a fresh database has them,
 * months opened while the service runs, "one registration per CUIR" and "one dispensation per
 * item" raced across a month's boundary, and the operator's `particiones` command.
 */
describe('partitions by month', () => {
  let fresh: FreshDatabase;
  let t: TestApp;
  let db: DataSource;
  let owner: TestClient;
  let farmacias: TestClient[];
  const api = dispensasApi(() => t);
  const actual = periodoDe(new Date());
  /** The month the sequences are in: each test opens the next one. */
  let abierto: Periodo = actual;

  beforeAll(async () => {
    fresh = await freshDatabase('particiones');
    // The run's pool (5): 20 dispensations at once on it starved it once (a look-up under the
    // row lock waited for a second connection: ApiClientsRepository).
    t = await startTestApp({ DATABASE_URL: fresh.url, MINISTRY_DELIVERY_ENABLED: 'false' });
    // The test's own SQL runs as the migration role (the service's own role owns nothing).
    db = new DataSource(dataSourceOptions(fresh.url, 3));
    await db.initialize();
    owner = await createClient(t, { scopes: ['cuir:write', 'recetas:write', 'recetas:read'] });
    farmacias = [];
    for (let i = 0; i < 2; i++)
      farmacias.push(
        await createClient(t, { scopes: [...PHARMACY_SCOPES], rateLimitPerMinute: 100_000 }),
      );
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await t?.stop();
    await fresh?.drop();
  });

  /**
   * Opens the month after the open one, as a migration run in that month does (a start, or the
   * scheduled `particiones crear`): the same database function the service's hourly run calls
   * through its door, with that month's instant.
   */
  const abrirSiguiente = async () => {
    abierto = siguiente(abierto);
    const at = new Date(new Date(primerInstante(abierto)).getTime() + 60_000);
    const q = db.createQueryRunner();
    try {
      return await asegurarEnTransaccion(q, TABLES, at);
    } finally {
      await q.release();
    }
  };
  const partitionOf = async (table: string, key: string, id: string): Promise<string> => {
    const [row] = await db.query<Array<{ p: string }>>(
      `SELECT tableoid::regclass::text AS p FROM ${table} WHERE ${key} = $1`,
      [id],
    );
    return row?.p;
  };
  const registered = async () => {
    const body = registrationBody({
      items: [{ nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2, codigo: '1336421' }],
    });
    const res = await register(t, owner, body).expect(201);
    return { id: res.body.data.id_transaccion as string, cuir: body.cuir as string };
  };

  it('a fresh database: the tables partitioned, this month and twelve ahead, the month opened', async () => {
    const kinds = await db.query<Array<{ relname: string; relkind: string }>>(
      `SELECT relname, relkind FROM pg_class WHERE relname = ANY($1) ORDER BY relname`,
      [[...FAMILY, 'auditoria_eventos', 'verificaciones_cuir', 'recetas_cuir']],
    );
    expect(Object.fromEntries(kinds.map((k) => [k.relname, k.relkind]))).toEqual({
      auditoria_eventos: 'p',
      dispensa_items: 'p',
      dispensa_reservas: 'p',
      dispensas: 'p',
      receta_historial: 'p',
      recetas: 'p',
      verificaciones_cuir: 'p',
      // One row per CUIR across every month: a plain table.
      recetas_cuir: 'r',
    });
    const months = Array.from({ length: 13 }, (_, i) => sufijo(siguiente(actual, i)));
    expect(MESES_ADELANTE).toBe(12);
    for (const table of [...FAMILY, 'auditoria_eventos', 'verificaciones_cuir']) {
      const parts = await db.query<Array<{ name: string }>>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = $1::regclass ORDER BY 1`,
        [table],
      );
      expect(parts.map((p) => p.name)).toEqual([
        `${table}_p0`,
        ...months.map((m) => `${table}_p${m}`),
      ]);
    }
    const opened = await db.query<Array<{ secuencia: string; primer_id: string }>>(
      `SELECT secuencia, primer_id::text FROM particiones_aperturas ORDER BY secuencia`,
    );
    expect(opened).toEqual([
      { secuencia: 'auditoria_eventos.id', primer_id: primerId(actual).toString() },
      { secuencia: 'recetas.id_transaccion', primer_id: primerId(actual).toString() },
    ]);
    // The operators' gauge says twelve months ahead (ops: PartitionsAheadLow below two).
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/^particiones_meses_adelante 12$/m);
    // The service's hourly run, through its door, finds the month open already.
    expect(await t.app.get(ParticionesScheduler).tick()).toEqual([]);
    // A registration lands in this month's partition, with everything that hangs off it.
    const r = await registered();
    expect(BigInt(r.id) >= primerId(actual)).toBe(true);
    expect(await partitionOf('recetas', 'id_transaccion', r.id)).toBe(`recetas_p${months[0]}`);
    expect(await partitionOf('receta_historial', 'id_transaccion', r.id)).toBe(
      `receta_historial_p${months[0]}`,
    );
  });

  it('a month opened while the service runs: new ids in its partition; every read finds both months', async () => {
    const before = await registered();
    const run = await abrirSiguiente();
    // Its partitions were made ahead already: the run only opens the sequences.
    expect(run.abiertas.map((a) => a.secuencia).sort()).toEqual([
      'auditoria_eventos.id',
      'recetas.id_transaccion',
    ]);
    expect(run.creadas).toEqual(
      expect.arrayContaining([`recetas_p${sufijo(siguiente(abierto, MESES_ADELANTE))}`]),
    );
    const after = await registered();
    expect(after.id).toBe(primerId(abierto).toString());
    expect(await partitionOf('recetas', 'id_transaccion', after.id)).toBe(
      `recetas_p${sufijo(abierto)}`,
    );
    const reader = await createClient(t, { scopes: ['recetas:verify'] });
    for (const r of [before, after]) {
      const detail = await request(t.url).get(`/v1/recetas/${r.id}`).set(owner.headers).expect(200);
      expect(detail.body.data.cuir).toBe(r.cuir);
      const v = await request(t.url)
        .get(`/v1/recetas/verificar/${r.cuir}`)
        .set(reader.headers)
        .expect(200);
      expect(v.body.data.cuir).toBe(r.cuir);
    }
    const day = 86_400_000;
    const list = await request(t.url)
      .get('/v1/recetas/listar')
      .query({
        fecha_desde: new Date(Date.now() - day).toISOString(),
        fecha_hasta: new Date(Date.now() + day).toISOString(),
        per_page: 200,
      })
      .set(owner.headers)
      .expect(200);
    const ids = list.body.data.items.map((i: { id_transaccion: string }) => i.id_transaccion);
    expect(ids).toEqual(expect.arrayContaining([before.id, after.id]));
  });

  it('one registration per CUIR across a month boundary: 20 at once while the month opens, one 201', async () => {
    const cuir = newCuir();
    await issueCuir(t, owner, cuir);
    const body = registrationBody({ cuir });
    const attempts = Array.from({ length: 20 }, (_, i) =>
      // The month opens among them: some draw ids of the month before, some of the new one.
      i === 10
        ? abrirSiguiente().then(() => postRegistration(t, owner, body))
        : postRegistration(t, owner, body),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    const [{ n }] = await db.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM recetas WHERE cuir = $1`,
      [cuir],
    );
    expect(n).toBe(1);
    // The database itself refuses a second row in another month's partition, by any path: an
    // insert into recetas takes its CUIR's row (the trigger), and that row is taken.
    const other = (primerId(siguiente(abierto, 2)) + 7n).toString();
    const insertRow = (id: string, rowCuir: string) =>
      db.query(
        `INSERT INTO recetas (id_transaccion, client_id, cuir, documento_paciente,
           matricula_profesional, locacion, fecha_creacion, items, mensaje, vigencia_desde,
           vigencia_hasta)
         VALUES ($1, $2, $3, '30111222', '123456', 'x', now(), '[]', 'x', current_date,
                 current_date)`,
        [id, owner.id, rowCuir],
      );
    await expect(insertRow(other, cuir)).rejects.toMatchObject({
      driverError: { code: '23505', constraint: 'recetas_cuir_pkey' },
    });
    // A row written straight into the table, past the service, gets its CUIR's row all the same.
    const fresh = newCuir();
    await insertRow(other, fresh);
    expect(
      await db.query(`SELECT id_transaccion::text AS id FROM recetas_cuir WHERE cuir = $1`, [
        fresh,
      ]),
    ).toEqual([{ id: other }]);
    // And a prescription's CUIR or id never changes under its CUIR's row.
    await expect(
      db.query(`UPDATE recetas SET cuir = $2 WHERE id_transaccion = $1`, [other, newCuir()]),
    ).rejects.toMatchObject({ driverError: { code: '23000' } });
    await expect(
      db.query(`UPDATE recetas SET id_transaccion = id_transaccion + 1 WHERE id_transaccion = $1`, [
        other,
      ]),
    ).rejects.toMatchObject({ driverError: { code: '23000' } });
  });

  it('one dispensation per item across a month boundary: 20 at once while the month opens, one 201', async () => {
    // A prescription of the month before; the dispensations race the opening of the next.
    const r = await registered();
    const body = dispensaBody(r.cuir, [[1, 2]]);
    const attempts = Array.from({ length: 20 }, (_, i) =>
      i === 10
        ? abrirSiguiente().then(() => api.dispensar(farmacias[i % 2], body))
        : api.dispensar(farmacias[i % 2], body),
    );
    const statuses = (await Promise.all(attempts)).map((x) => x.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    // The dispensation lives in its prescription's month, whatever month it happened in.
    const [d] = await db.query<Array<{ id: string; p: string }>>(
      `SELECT id, tableoid::regclass::text AS p FROM dispensas WHERE id_transaccion = $1`,
      [r.id],
    );
    expect(d.p).toBe(
      (await partitionOf('recetas', 'id_transaccion', r.id)).replace('recetas', 'dispensas'),
    );
    // The database refuses a second dispensation of the item, in any month.
    const second = randomUUID();
    await expect(
      db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO dispensas (id, id_transaccion, client_id, farmacia_cuit, farmacia_nombre, fecha_dispensa)
           VALUES ($1, $2, $3, '30712345671', 'Otra', now())`,
          [second, r.id, farmacias[1].id],
        );
        await tx.query(
          `INSERT INTO dispensa_items (id_dispensa, item, id_transaccion, cantidad) VALUES ($1, 1, $2, 1)`,
          [second, r.id],
        );
      }),
    ).rejects.toMatchObject({
      driverError: {
        code: '23505',
        constraint: expect.stringMatching(/^dispensa_items_una_vez_p\d{4}_\d{2}$/),
      },
    });
  });

  it('particiones: lists the months; drops those past the retention with their CUIRs; refuses within it', async () => {
    const cli = (args: string[]) =>
      runCli(['particiones', ...args], { DATABASE_URL: fresh.url }).catch(
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    // A database partitioned since before 2019: the first partitions (the rows of before
    // partitioning, none in this database) give way to months of 2019, made as the service
    // makes months, with one prescription in one.
    for (const table of [
      'dispensa_items',
      'dispensas',
      'dispensa_reservas',
      'receta_historial',
      'recetas',
      'verificaciones_cuir',
    ]) {
      await db.query(`ALTER TABLE ${table} DETACH PARTITION ${table}_p0`);
      await db.query(`DROP TABLE ${table}_p0`);
    }
    const old: Periodo = { year: 2019, month: 1 };
    const sinEventos = TABLES.filter((x) => x.table !== 'auditoria_eventos');
    await db.transaction((tx) => asegurarParticiones(tx, sinEventos, new Date('2019-01-10'), 0));
    const id = (primerId(old) + 1n).toString();
    const cuir = newCuir();
    await db.query(
      `WITH r AS (INSERT INTO recetas (id_transaccion, client_id, cuir, documento_paciente,
                    matricula_profesional, locacion, fecha_creacion, items, mensaje,
                    vigencia_desde, vigencia_hasta)
                  VALUES ($1, $2, $3, '30111222', '123456', 'x', '2019-01-10', '[]', 'x',
                          '2019-01-10', '2019-02-08') RETURNING id_transaccion)
       INSERT INTO receta_historial (id_transaccion, evento, estado)
       SELECT id_transaccion, 'REGISTRADA', 'PENDING' FROM r`,
      [id, owner.id, cuir],
    );
    const listed = JSON.parse((await cli(['listar', '--json'])).stdout) as {
      particiones: Array<{ tabla: string; particion: string; periodo: string | null }>;
    };
    expect(listed.particiones).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tabla: 'recetas',
          particion: 'recetas_p2019_01',
          periodo: '2019-01',
        }),
        expect.objectContaining({ tabla: 'recetas', particion: `recetas_p${sufijo(actual)}` }),
      ]),
    );
    // Within the retention: refused, nothing touched.
    const today = new Date().toISOString().slice(0, 10);
    const refused = await cli(['borrar', '--antes-de', today]);
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.stderr).toContain('within the retention of 5 years');
    const dropped = JSON.parse(
      (await cli(['borrar', '--antes-de', '2019-02-01', '--json'])).stdout,
    );
    expect(dropped.meses).toEqual(
      expect.arrayContaining([
        {
          tabla: 'recetas',
          periodo: '2019-01',
          particiones: [
            'dispensa_items_p2019_01',
            'dispensas_p2019_01',
            'dispensa_reservas_p2019_01',
            'receta_historial_p2019_01',
            'recetas_p2019_01',
          ],
          cuirs_borrados: 1,
        },
        {
          tabla: 'verificaciones_cuir',
          periodo: '2019-01',
          particiones: ['verificaciones_cuir_p2019_01'],
        },
      ]),
    );
    // The event log's months are never taken here (auditoria purgar drops them, after their seals).
    expect(dropped.meses.map((m: { tabla: string }) => m.tabla)).not.toContain('auditoria_eventos');
    const gone = await db.query(`SELECT to_regclass('recetas_p2019_01') AS t`);
    expect(gone).toEqual([{ t: null }]);
    expect(await db.query(`SELECT 1 FROM recetas_cuir WHERE cuir = $1`, [cuir])).toEqual([]);
    // The months of now are untouched.
    expect(
      await db.query(`SELECT to_regclass($1) IS NOT NULL AS t`, [`recetas_p${sufijo(actual)}`]),
    ).toEqual([{ t: true }]);
  });
});
