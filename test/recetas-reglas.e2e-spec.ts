import fc from 'fast-check';
import { DataSource, type QueryRunner } from 'typeorm';
import { RECETAS_REGLAS } from '../src/recetas/migrations/1795728800500-RecetasReglasEnTrigger.js';
import { createClient } from './support/clients.js';
import { newCuir } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** The columns a rule reads, and a few values of each on both sides of every rule (NULL too). */
const VALUES = {
  estado: ['PENDING', 'COMPLETED', 'FAILED', 'CANCELLED'],
  anulada_at: [null, '2026-11-20T10:00:00Z'],
  motivo_anulacion: [null, 'error de carga'],
  anulacion_estado: [null, 'PENDING', 'NOT_REQUIRED', 'ANULADA'],
  cobertura_financiador: [null, 'OSDE'],
  cobertura_numero_afiliado: [null, '61234567801'],
  cobertura_codigo_rnos: [null, '400909'],
  cobertura_plan: [null, '310'],
  personales_cifrado: [null, '\\x0107'],
  content_salt: [null, `\\x${'ab'.repeat(16)}`, `\\x${'ab'.repeat(15)}`],
  diagnostico_codigo: [null, 'J06.9'],
  diagnostico_descripcion: [null, 'infección aguda'],
  documento_paciente: [null, '30111222'],
  documento_cifrado: [null, '\\x0108'],
  documento_indice: [null, '\\x0109'],
  items: [
    '[]',
    JSON.stringify([{ nombre: 'Ibuprofeno', cantidad: 1, sustituible: true }]),
    JSON.stringify([{ nombre: 'Ibuprofeno', cantidad: '1' }]),
    JSON.stringify([{ nombre: 'Amoxicilina', cantidad: 2, posologia: 8 }]),
    JSON.stringify({ nombre: 'Ibuprofeno' }),
  ],
  paciente_nombre: [null, 'Ana'],
  paciente_apellido: [null, 'Pérez'],
  paciente_sexo: [null, 'F', 'Q'],
  paciente_fecha_nacimiento: [null, '1980-05-01', '1899-12-31'],
  vigencia_desde: ['2026-11-20'],
  vigencia_hasta: ['2026-11-19', '2026-11-20', '2026-12-19'],
} as const;
type Row = { -readonly [K in keyof typeof VALUES]: (typeof VALUES)[K][number] };
const COLUMNS = Object.keys(VALUES) as Array<keyof Row>;

const anyRow: fc.Arbitrary<Row> = fc.record(
  Object.fromEntries(COLUMNS.map((c) => [c, fc.constantFrom(...VALUES[c])])) as {
    [K in keyof Row]: fc.Arbitrary<Row[K]>;
  },
);

/** A row every rule accepts. */
const GOOD: Row = {
  estado: 'PENDING',
  anulada_at: null,
  motivo_anulacion: null,
  anulacion_estado: null,
  cobertura_financiador: 'OSDE',
  cobertura_numero_afiliado: null,
  cobertura_codigo_rnos: '400909',
  cobertura_plan: '310',
  personales_cifrado: '\\x0107',
  content_salt: `\\x${'ab'.repeat(16)}`,
  diagnostico_codigo: null,
  diagnostico_descripcion: null,
  documento_paciente: null,
  documento_cifrado: '\\x0108',
  documento_indice: '\\x0109',
  items: JSON.stringify([{ nombre: 'Ibuprofeno', cantidad: 1, sustituible: true }]),
  paciente_nombre: null,
  paciente_apellido: null,
  paciente_sexo: null,
  paciente_fecha_nacimiento: null,
  vigencia_desde: '2026-11-20',
  vigencia_hasta: '2026-12-19',
};

/** Rows near GOOD (up to four columns changed), and rows of any values. */
const rows: fc.Arbitrary<Row> = fc.oneof(
  fc.tuple(fc.subarray(COLUMNS, { maxLength: 4 }), anyRow).map(([changed, other]) => ({
    ...GOOD,
    ...Object.fromEntries(changed.map((c) => [c, other[c]])),
  })),
  anyRow,
);

/** For each rule, a change to GOOD that breaks that rule alone. */
const BREAKS: Record<string, Partial<Row>> = {
  recetas_anulacion: { anulada_at: '2026-11-20T10:00:00Z' },
  recetas_anulacion_estado_check: {
    anulada_at: '2026-11-20T10:00:00Z',
    motivo_anulacion: 'error de carga',
    anulacion_estado: 'ANULADA',
  },
  recetas_cobertura: { cobertura_financiador: null },
  recetas_content_salt: { content_salt: `\\x${'ab'.repeat(15)}` },
  recetas_diagnostico: { diagnostico_descripcion: 'infección aguda' },
  recetas_documento: { documento_indice: null },
  recetas_estado_check: { estado: 'CANCELLED' },
  recetas_items_tipos: { items: JSON.stringify([{ nombre: 'Ibuprofeno', cantidad: '1' }]) },
  recetas_paciente: { paciente_sexo: 'Q' },
  recetas_personales: { diagnostico_codigo: 'J06.9' },
  recetas_vigencia: { vigencia_hasta: '2026-11-19' },
};

/**
 * `recetas`' rules after migration 1795728800500: the CHECKs are gone, and the insert and update
 * triggers refuse what they refused, with the same error. Compared row by row with a scratch
 * table that keeps the CHECKs as the migrations wrote them (RECETAS_REGLAS).
 */
describe('recetas: the rules the CHECKs stated, in the triggers', () => {
  let t: TestApp;
  let q: QueryRunner;
  let clientId: string;

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    clientId = (await createClient(t, { scopes: ['recetas:write'] })).id;
    q = t.app.get(DataSource).createQueryRunner();
    await q.connect();
    // Nothing written here stays: every test's rows go with this transaction.
    await q.startTransaction();
    await q.query(`CREATE TEMP TABLE recetas_con_checks (LIKE recetas INCLUDING DEFAULTS)`);
    for (const [name, test] of Object.entries(RECETAS_REGLAS))
      await q.query(`ALTER TABLE recetas_con_checks ADD CONSTRAINT ${name} CHECK (${test('')})`);
  }, 60_000);
  afterAll(async () => {
    await q?.rollbackTransaction();
    await q?.release();
    await t?.stop();
  });

  /** Runs one statement under a savepoint: null, or the error it was refused with. */
  async function attempt(
    sql: string,
    params: unknown[],
  ): Promise<{ code: string; constraint: string; message: string } | null> {
    await q.query('SAVEPOINT intento');
    try {
      await q.query(sql, params);
      await q.query('RELEASE SAVEPOINT intento');
      return null;
    } catch (err) {
      await q.query('ROLLBACK TO SAVEPOINT intento');
      const e = (err as { driverError: { code: string; constraint: string; message: string } })
        .driverError;
      return { code: e.code, constraint: e.constraint, message: e.message };
    }
  }

  /** Inserts `row` into `table`: null, or the error it was refused with. */
  const insert = (table: string, row: Row) =>
    attempt(
      `INSERT INTO ${table} (client_id, cuir, matricula_profesional, locacion, fecha_creacion,
         mensaje, ${COLUMNS.join(', ')})
       VALUES ($1, $2, '123456', 'x', now(), 'x', ${COLUMNS.map((_, i) => `$${i + 3}`).join(', ')})`,
      [clientId, newCuir(), ...COLUMNS.map((c) => row[c])],
    );

  it('leaves no CHECK on recetas or its partitions', async () => {
    const [{ n }] = (await q.query(
      `SELECT count(*)::int AS n FROM pg_constraint c JOIN pg_inherits i ON true
        WHERE c.contype = 'c' AND (c.conrelid = 'recetas'::regclass
           OR (i.inhparent = 'recetas'::regclass AND c.conrelid = i.inhrelid))`,
    )) as Array<{ n: number }>;
    expect(n).toBe(0);
  });

  it.each(Object.entries(BREAKS))(
    'refuses a row breaking %s with its check_violation, naming the month',
    async (name, change) => {
      expect(await insert('recetas', GOOD)).toBeNull();
      const refused = await insert('recetas', { ...GOOD, ...change });
      expect(refused).toEqual({
        code: '23514',
        constraint: name,
        message: expect.stringMatching(
          new RegExp(`^new row for relation "recetas_p\\w+" violates check constraint "${name}"$`),
        ),
      });
      // The CHECK refused it the same way.
      expect(await insert('recetas_con_checks', { ...GOOD, ...change })).toMatchObject({
        code: '23514',
        constraint: name,
      });
    },
  );

  it('accepts and refuses exactly the rows the CHECKs did, naming the same rule', async () => {
    const samples = fc.sample(rows, { numRuns: 400, seed: 16 });
    let accepted = 0;
    const named = new Set<string>();
    for (const row of samples) {
      const withChecks = await insert('recetas_con_checks', row);
      const withTriggers = await insert('recetas', row);
      expect({ row, refused: withTriggers && withTriggers.constraint }).toEqual({
        row,
        refused: withChecks && withChecks.constraint,
      });
      if (withChecks === null) accepted++;
      else named.add(withChecks.constraint);
    }
    // Both sides were exercised, and each rule was the one that refused some row.
    expect(accepted).toBeGreaterThan(samples.length / 10);
    expect([...named].sort()).toEqual(Object.keys(RECETAS_REGLAS).sort());
  }, 120_000);

  it('tests an updated row too, and still refuses a new CUIR or id', async () => {
    expect(await insert('recetas', GOOD)).toBeNull();
    const [{ id }] = (await q.query(
      `SELECT max(id_transaccion)::text AS id FROM recetas`,
    )) as Array<{ id: string }>;
    const update = async (set: string) => {
      const refused = await attempt(`UPDATE recetas SET ${set} WHERE id_transaccion = $1`, [id]);
      return refused && { code: refused.code, constraint: refused.constraint };
    };
    expect(await update(`estado = 'CANCELLED'`)).toEqual({
      code: '23514',
      constraint: 'recetas_estado_check',
    });
    expect(await update(`anulada_at = now()`)).toEqual({
      code: '23514',
      constraint: 'recetas_anulacion',
    });
    expect(await update(`vigencia_hasta = vigencia_desde - 1`)).toEqual({
      code: '23514',
      constraint: 'recetas_vigencia',
    });
    expect(await update(`cuir = '${newCuir()}'`)).toMatchObject({ code: '23000' });
    expect(await update(`id_transaccion = id_transaccion + 1`)).toMatchObject({ code: '23000' });
    // A change the rules allow goes through; the refused ones left the row as it was.
    expect(
      await update(`anulada_at = now(), motivo_anulacion = 'x', anulacion_estado = 'PENDING'`),
    ).toBeNull();
    const [after] = (await q.query(
      `SELECT estado, anulacion_estado FROM recetas WHERE id_transaccion = $1`,
      [id],
    )) as Array<{ estado: string; anulacion_estado: string }>;
    expect(after).toEqual({ estado: 'PENDING', anulacion_estado: 'PENDING' });
  });
});
