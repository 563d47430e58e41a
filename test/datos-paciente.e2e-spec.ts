import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import request from 'supertest';
import { cliJson, runCli } from './support/cli.js';
import { createClient, type TestClient } from './support/clients.js';
import { type FreshDatabase, freshDatabase } from './support/fresh-database.js';
import {
  fullContent,
  newCuir,
  personalesEnClaroSet,
  register,
  registrationBody,
} from './support/recetas.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const exec = promisify(execFile);

/** The operator tool with `--json`, killed after `ms` (a walk that never ends fails, not hangs). */
async function cliWithin(
  ms: number,
  args: string[],
  env: Record<string, string>,
): Promise<unknown> {
  const run = exec(process.execPath, ['dist/src/cli/main.js', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    timeout: ms,
  });
  return run.then(
    (r) => JSON.parse(r.stdout) as unknown,
    (err: { killed?: boolean }) => (err.killed ? `still running after ${ms} ms` : err),
  );
}
const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;

/**
 * The whole database as text. pg_dump when its major version is the server's (the local
 * PostgreSQL 15 of DATABASE_URL); otherwise (the embedded PostgreSQL of a run without
 * DATABASE_URL, whose npm package ships no pg_dump, and a pg_dump of another major refuses or
 * may not read it) every row of every table as PostgreSQL's text form of the row, which is what
 * COPY … TO STDOUT writes (bytea in hex).
 */
async function dump(url: string): Promise<{ text: string; how: string }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const server = Number(
      (
        await c.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`)
      ).rows[0].v.slice(0, -4),
    );
    const tool = await exec('pg_dump', ['--version']).then(
      (r) => Number(/(\d+)\./.exec(r.stdout)?.[1]),
      () => null,
    );
    if (tool === server) {
      const { stdout } = await exec('pg_dump', ['--data-only', url], { maxBuffer: 1 << 28 });
      return { text: stdout, how: `pg_dump ${tool}` };
    }
    const tables = await c.query<{ t: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS t FROM pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    );
    let text = '';
    for (const { t } of tables.rows) {
      const rows = await c.query<{ r: string }>(`SELECT x::text AS r FROM ${t} x`);
      text += rows.rows.map((r) => r.r).join('\n') + '\n';
    }
    return { text, how: `rows as text (pg_dump ${tool ?? 'absent'}, server ${server})` };
  } finally {
    await c.end();
  }
}

/**
 * What fullContent() holds that identifies or describes the patient: none of it may be in a
 * dump (the insurer, its RNOS code and plan stay in clear: they identify no one).
 */
const PERSONALES_EN_CLARO = [
  'Ana María',
  'Fernández',
  '1985-03-14',
  '15-12345678-9/00',
  'J02.9',
  'Faringitis aguda',
];

/** The members the detail shows, as fullContent() sent them. */
const { paciente, cobertura, diagnostico } = fullContent();

/**
 * SPEC 10: the patient's document sealed at rest, found by its blind index; SPEC 9.2's personal
 * members sealed beside it.
 */
describe("the patient's data at rest (SPEC 10)", () => {
  let db: FreshDatabase;
  let sql: pg.Client;
  let t: TestApp | undefined;
  let c: TestClient;
  const since = new Date(Date.now() - 3_600_000).toISOString();
  const start = async (keys: string) => {
    await t?.stop();
    t = await startTestApp({ DATABASE_URL: db.url, PATIENT_DATA_KEYS: keys });
    return t;
  };
  const listar = (documento: string) =>
    request(t!.url)
      .get('/v1/recetas/listar')
      .query({
        fecha_desde: since,
        fecha_hasta: new Date(Date.now() + 60_000).toISOString(),
        documento,
      })
      .set(c.headers)
      .expect(200);
  const detalle = (id: string) => request(t!.url).get(`/v1/recetas/${id}`).set(c.headers);
  const cli = (keys: string) =>
    cliJson<{ en_claro: number; otra_clave: number; clave_actual: string }>(
      ['pacientes', 'cifrar', '--lote', '2'],
      { DATABASE_URL: db.url, PATIENT_DATA_KEYS: keys },
    );
  /**
   * Per row, oldest first: the key of the sealed document and of the sealed personal members
   * (null: not sealed), and what of each is in clear.
   */
  const kids = async () =>
    (
      await sql.query<{
        kid: string | null;
        claro: string | null;
        pkid: string | null;
        pclaro: string | null;
      }>(
        `SELECT convert_from(substring(documento_cifrado from 3 for get_byte(documento_cifrado, 1)), 'UTF8') AS kid,
                documento_paciente AS claro,
                convert_from(substring(personales_cifrado from 3 for get_byte(personales_cifrado, 1)), 'UTF8') AS pkid,
                concat_ws('|', paciente_nombre, paciente_apellido, paciente_sexo,
                          paciente_fecha_nacimiento, cobertura_numero_afiliado,
                          diagnostico_codigo, diagnostico_descripcion) AS pclaro
           FROM recetas ORDER BY id_transaccion`,
      )
    ).rows;
  /** The detail's patient data: what must read the same in any state of the row. */
  const datos = async (id: string) => {
    const d = (await detalle(id).expect(200)).body.data;
    return {
      documento_paciente: d.documento_paciente,
      paciente: d.paciente,
      cobertura: d.cobertura,
      diagnostico: d.diagnostico,
    };
  };
  const todo = { paciente, cobertura, diagnostico };
  let sellada: string;
  let anterior: string;

  beforeAll(async () => {
    db = await freshDatabase('cifrado');
    await start(K1);
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    c = await createClient(t!);
  });
  afterAll(async () => {
    await t?.stop();
    await sql?.end();
    await db?.drop();
  });

  it('a dump holds no DNI nor personal member in clear, while listar by documento finds it and the detail shows them', async () => {
    const res = await register(
      t!,
      c,
      registrationBody({ ...fullContent(), documento_paciente: '30.111.222' }),
    ).expect(201);
    sellada = String(res.body.data.id_transaccion);
    const { text, how } = await dump(db.url);
    expect(text.length).toBeGreaterThan(1000);
    // The dump holds the prescription (its CUIR) and its insurer, but not the DNI, nor the
    // patient's name, surname or birth date, nor the member number, nor the diagnosis.
    expect(text).toContain(String(res.body.data.cuir));
    expect(text).toContain('Plan 210');
    expect(text).not.toContain('30111222');
    for (const personal of PERSONALES_EN_CLARO) expect(text).not.toContain(personal);
    // Which dump ran: pg_dump on the local PostgreSQL 15; rows as text on the embedded 18.
    expect(how).toMatch(process.env.DATABASE_URL ? /^pg_dump 15$/ : /^(pg_dump \d+|rows as text)/);

    const found = (await listar('30111222')).body.data;
    expect(found.items.map((i: { id_transaccion: string }) => i.id_transaccion)).toEqual([sellada]);
    expect(found.items[0].documento_paciente).toBe('30111222');
    expect((await listar('30111223')).body.data.total).toBe(0);
    expect(await datos(sellada)).toEqual({ documento_paciente: '30111222', ...todo });
    expect(await kids()).toEqual([{ kid: 'k1', claro: null, pkid: 'k1', pclaro: '' }]);
  });

  it('a row registered before sealing (in clear) is still read and found', async () => {
    const res = await register(
      t!,
      c,
      registrationBody({ ...fullContent(), documento_paciente: '25111333' }),
    ).expect(201);
    anterior = String(res.body.data.id_transaccion);
    // Back to the state a row registered before this issue is in: everything in clear.
    await sql.query(
      `UPDATE recetas SET documento_paciente = '25111333', documento_cifrado = NULL,
              documento_indice = NULL, ${personalesEnClaroSet()} WHERE id_transaccion = $1`,
      [anterior],
    );
    expect((await kids())[1]).toMatchObject({ kid: null, pkid: null, pclaro: /^Ana María\|/ });
    expect((await listar('25111333')).body.data.items[0].id_transaccion).toBe(anterior);
    expect(await datos(anterior)).toEqual({ documento_paciente: '25111333', ...todo });
  });

  it('pacientes cifrar seals what is in clear and re-seals old keys; rows still read after dropping the old key', async () => {
    // Rotation: the new key first, the old one still listed.
    await start(`${K2},${K1}`);
    const third = await register(
      t!,
      c,
      registrationBody({ documento_paciente: '30111222' }),
    ).expect(201);
    // A row whose document is sealed under the current key, but its personal members in clear.
    const fourth = String(
      (
        await register(
          t!,
          c,
          registrationBody({ ...fullContent(), documento_paciente: '30111224' }),
        ).expect(201)
      ).body.data.id_transaccion,
    );
    await sql.query(`UPDATE recetas SET ${personalesEnClaroSet()} WHERE id_transaccion = $1`, [
      fourth,
    ]);
    expect((await kids()).map((k) => [k.kid, k.pkid])).toEqual([
      ['k1', 'k1'],
      [null, null],
      ['k2', null],
      ['k2', null],
    ]);
    const before = await datos(anterior);
    // While the service runs.
    expect(await cli(`${K2},${K1}`)).toMatchObject({
      en_claro: 2,
      otra_clave: 1,
      clave_actual: 'k2',
    });
    const sealed = { kid: 'k2', claro: null, pkid: 'k2', pclaro: '' };
    expect(await kids()).toEqual([
      sealed,
      sealed,
      // No personal member registered: nothing to seal.
      { ...sealed, pkid: null },
      sealed,
    ]);
    // Nothing left to do: a second run changes nothing.
    expect(await cli(`${K2},${K1}`)).toMatchObject({ en_claro: 0, otra_clave: 0 });
    const { text } = await dump(db.url);
    expect(text).not.toContain('30111222');
    expect(text).not.toContain('25111333');
    for (const personal of PERSONALES_EN_CLARO) expect(text).not.toContain(personal);
    // Sealed by the command, the row reads the same.
    expect(await datos(anterior)).toEqual(before);
    expect(await datos(fourth)).toEqual({ documento_paciente: '30111224', ...todo });

    // The old key dropped: everything still reads, by documento too.
    await start(K2);
    const ids = (await listar('30111222')).body.data.items.map(
      (i: { id_transaccion: string }) => i.id_transaccion,
    );
    expect(ids.sort()).toEqual([sellada, String(third.body.data.id_transaccion)].sort());
    expect((await listar('25111333')).body.data.items[0].documento_paciente).toBe('25111333');
    expect(await datos(sellada)).toEqual({ documento_paciente: '30111222', ...todo });
    expect(await datos(anterior)).toEqual(before);
  });

  it('pacientes cifrar walks rows, not ids: two months 10^9 ids apart cost rows ÷ batch batches (SPEC 11.3)', async () => {
    // Month yyyy-mm holds ids yyyymm·10^9…: rows in clear at the end of the month the earlier
    // rows are in, and at the start of the next one.
    const [{ base }] = (
      await sql.query<{ base: string }>(
        `SELECT (max(id_transaccion) / 1000000000 * 1000000000)::text AS base FROM recetas`,
      )
    ).rows;
    const yyyymm = Number(BigInt(base) / 1_000_000_000n);
    const next = yyyymm % 100 === 12 ? yyyymm + 89 : yyyymm + 1;
    const ids = [
      ...[1, 2, 3, 4, 5].map((i) => BigInt(base) + 999_999_990n + BigInt(i)),
      ...[1, 2, 3, 4, 5].map((i) => BigInt(next) * 1_000_000_000n + BigInt(i)),
    ].map(String);
    const copied = (
      await sql.query<{ c: string }>(
        `SELECT string_agg(quote_ident(column_name), ', ') AS c FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'recetas'
            AND column_name NOT IN ('id_transaccion', 'cuir', 'documento_paciente',
              'documento_cifrado', 'documento_indice', 'content_salt', 'idempotency_key')`,
      )
    ).rows[0].c;
    for (const id of ids) {
      // A copy of a registered row, as a row registered before sealing holds it: in clear.
      await sql.query(
        `INSERT INTO recetas (id_transaccion, cuir, documento_paciente, content_salt, ${copied})
         SELECT $1::bigint, $2, '30111299', $3, ${copied} FROM recetas WHERE id_transaccion = $4`,
        [id, newCuir(), randomBytes(16), sellada],
      );
      await sql.query(`UPDATE recetas SET ${personalesEnClaroSet()} WHERE id_transaccion = $1`, [
        id,
      ]);
    }
    expect((await listar('30111299')).body.data.total).toBe(10);

    // Every other row is sealed under the current key already: ten rows, batches of four.
    const run = await cliWithin(20_000, ['pacientes', 'cifrar', '--lote', '4', '--json'], {
      DATABASE_URL: db.url,
      PATIENT_DATA_KEYS: K2,
    });
    expect(run).toMatchObject({
      en_claro: 10,
      otra_clave: 0,
      lotes: 3,
      restantes: { total: 0, en_claro: 0, por_clave: {} },
    });
    expect((await kids()).filter((k) => k.kid !== 'k2' || k.pkid !== 'k2')).toEqual([
      // No personal member registered: nothing to seal.
      expect.objectContaining({ kid: 'k2', pkid: null }),
    ]);
    const found = (await listar('30111299')).body.data.items as Array<{ id_transaccion: string }>;
    expect(found.map((i) => i.id_transaccion).sort()).toEqual([...ids].sort());
    expect(await datos(ids[9])).toEqual({ documento_paciente: '30111299', ...todo });
  });

  it('a key set that cannot open the stored data fails loudly: the start, the command, a read', async () => {
    const k3 = `k3:${key()}`;
    await t?.stop();
    t = undefined;
    await expect(startTestApp({ DATABASE_URL: db.url, PATIENT_DATA_KEYS: k3 })).rejects.toThrow(
      /PATIENT_DATA_KEYS cannot open the stored patient data: .*key "k2", which PATIENT_DATA_KEYS does not hold/,
    );
    // The command leaves those rows as they are, reports them by key and exits 1 (SPEC 11.3).
    const rows = Number((await sql.query('SELECT count(*)::int AS n FROM recetas')).rows[0].n);
    const failed = (await runCli(['pacientes', 'cifrar', '--json'], {
      DATABASE_URL: db.url,
      PATIENT_DATA_KEYS: k3,
    }).catch((err: unknown) => err)) as { code: number; stdout: string; stderr: string };
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      new RegExp(
        `${rows} prescriptions left: ${rows} under key "k2", which PATIENT_DATA_KEYS does not hold`,
      ),
    );
    expect(JSON.parse(failed.stdout)).toMatchObject({
      en_claro: 0,
      otra_clave: 0,
      clave_actual: 'k3',
      restantes: { total: rows, en_claro: 0, por_clave: { k2: rows } },
    });
    expect((await kids()).every((k) => k.kid === 'k2')).toBe(true);
    // A key with the right id and the wrong bytes: GCM refuses it.
    await expect(
      startTestApp({ DATABASE_URL: db.url, PATIENT_DATA_KEYS: `k2:${key()}` }),
    ).rejects.toThrow(/does not open under key "k2"/);
    // An older row under a key dropped too early (the start checks the newest only): a 500.
    await start(K2);
    await sql.query(
      `UPDATE recetas SET documento_cifrado = overlay(documento_cifrado placing '\\x6b39'::bytea from 3)
        WHERE id_transaccion = $1`,
      [sellada],
    );
    const res = await detalle(sellada).expect(500);
    expect(res.body.error.code).toBe('INTERNAL');
    expect(JSON.stringify(res.body)).not.toContain('k9');
  });
});
