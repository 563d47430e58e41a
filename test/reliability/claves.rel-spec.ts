import { hash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { RunningSandbox, startSandbox } from '../../sandbox/server.js';
import { canonicalJson } from '../../src/common/canonical-json.js';
import { claveDerivada } from '../../src/common/crypto/clave-derivada.js';
import { LABEL_HUELLA, requestHash } from '../../src/idempotency/canonical-hash.js';
import {
  abrir,
  documentoYSal,
  parseClaves,
  sellar,
} from '../../src/recetas/cifrado/datos-paciente.js';
import {
  type ContentHashFields,
  recetaContentHash,
} from '../../src/recetas/receta-content-hash.js';
import { cuitCheckDigit } from '../../src/paciente/cuil.js';
import { sandboxCitizenToken } from '../support/citizen-tokens.js';
import { cliJson, runCli } from '../support/cli.js';
import { freshDatabase, FreshDatabase } from '../support/fresh-database.js';
import { pdfText, withTools } from '../support/pdf-tools.js';
import { issueBodyCuir, registrationBody } from '../support/recetas.js';
import { sandboxedEnv, ServiceProcess, startServiceProcess } from '../support/service-process.js';
import { sleep } from './support/raw-http.js';

const PEPPER = randomBytes(32).toString('base64');
const KEYS = `k1:${randomBytes(32).toString('base64')}`;
/** The patient's DNI, and the window an attacker tries around it (10^5 candidates). */
const DNI = 30_111_222;
const WINDOW = 100_000;

/** The registration columns a dump shows, as an attacker reads them (dates as text). */
interface DumpRow extends ContentHashFields {
  id_transaccion: string;
  documento_cifrado: Buffer | null;
}

/**
 * Tries every DNI of the window against what a dump (and the public hash) shows; returns the
 * DNI it confirms, or null. `check` is one candidate's test.
 */
function bruteForce(check: (dni: string) => boolean): string | null {
  for (let d = DNI - WINDOW / 2; d < DNI + WINDOW / 2; d++) if (check(String(d))) return String(d);
  return null;
}

/** The request a platform sent (its ordinary body), rebuilt from the dump's row with `dni`. */
const requestOf = (row: DumpRow, dni: string) => ({
  documento_paciente: dni,
  matricula_profesional: row.matricula_profesional,
  refeps_id: row.refeps_id,
  locacion: row.locacion,
  cuir: row.cuir,
  id_de_receta: row.id_de_receta,
  nombre_medicamento: row.nombre_medicamento,
  fecha_creacion: row.fecha_creacion.toISOString(),
  items: row.items,
});

/**
 * The Idempotency-Key's fingerprint as a bare SHA-256 (what it was before SPEC 11.2) of the
 * request rebuilt with the candidate DNI.
 */
const requestHashAttack = (row: DumpRow, stored: string) => (dni: string) =>
  hash(
    'sha256',
    `POST POST /v1/recetas/registrar\n${canonicalJson(requestOf(row, dni))}`,
    'hex',
  ) === stored;

/**
 * content_sha256 (public: the verification by CUIR, the public page, the print) recomputed
 * from the dump's row with the candidate DNI, under the salt the dump shows. No salt in the
 * dump: nothing to try (the v1 formula holds no DNI).
 */
const contentHashAttack = (row: DumpRow, publicHash: string) => (dni: string) =>
  row.content_salt !== null &&
  recetaContentHash({ ...row, documento_paciente: dni }) === publicHash;

/**
 * SPEC 11.2: no hash over personal data without a key. Given only a database dump (read as SQL)
 * and every public output of a prescription, a DNI guess is confirmed by no column: neither the
 * Idempotency-Key's fingerprint (`idempotency_keys.request_hash`), nor the content hash's salt
 * (`recetas.content_salt`) beside the public `content_sha256`, nor a citizen's rate-limit
 * budget (`rate_limits.key`). Run as production does: the
 * service as its runtime role, its migrations as another (as runtime-role.rel-spec.ts).
 */
describe('hashes with keys: a dump confirms no DNI (SPEC 11.2)', () => {
  const role = `prs_claves_${randomBytes(5).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  let sandbox: RunningSandbox;
  let db: FreshDatabase;
  let admin: pg.Client;
  let runtimeUrl: string;
  let service: ServiceProcess | undefined;
  let headers: Record<string, string>;

  const asAdmin = async (sql: string) => {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    await asAdmin(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    db = await freshDatabase('claves');
    const u = new URL(db.url);
    u.username = role;
    u.password = password;
    runtimeUrl = u.toString();
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    service = await startServiceProcess(
      sandboxedEnv(sandbox.url, {
        DATABASE_URL: runtimeUrl,
        DATABASE_MIGRATION_URL: db.url,
        API_SECRET_PEPPER: PEPPER,
        PATIENT_DATA_KEYS: KEYS,
        // Budgets in the database, shared by instances: their keys are in the dump too.
        RATE_LIMIT_STORE: 'postgres',
      }),
    );
    const { stdout } = await runCli(
      ['clients', 'create', '--name', `claves-${randomUUID()}`, '--scopes', 'all', '--json'],
      { DATABASE_URL: runtimeUrl, DATABASE_MIGRATION_URL: db.url, API_SECRET_PEPPER: PEPPER },
    );
    const created = JSON.parse(stdout) as { key: string; secret: string };
    headers = { 'X-API-Key': created.key, 'X-API-Secret': created.secret };
  });
  afterAll(async () => {
    await service?.stop().catch(() => undefined);
    await sandbox?.close();
    await admin?.end();
    await db?.drop();
    await asAdmin(`DROP ROLE IF EXISTS ${role}`);
  });

  const api = () => request(service!.url);

  /** The dump's row of a prescription: every column as stored, the dates as text. */
  const dumpRow = async (cuir: string): Promise<DumpRow> =>
    (
      await admin.query<DumpRow>(
        `SELECT *, id_transaccion::text AS id_transaccion, vigencia_desde::text AS vigencia_desde,
                vigencia_hasta::text AS vigencia_hasta,
                paciente_fecha_nacimiento::text AS paciente_fecha_nacimiento
           FROM recetas WHERE cuir = $1`,
        [cuir],
      )
    ).rows[0];

  /** content_sha256 as a pharmacy's verification by CUIR shows it. */
  const verified = async (cuir: string) =>
    (await api().get(`/v1/recetas/verificar/${cuir}`).set(headers).expect(200)).body.data
      .content_sha256 as string;

  /**
   * Every public output's content_sha256 (the verification by CUIR, the public page behind
   * the QR, the print), checked to be one value.
   */
  const publicHash = async (cuir: string, id: string): Promise<string> => {
    const h = await verified(cuir);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    // The public page's link, as the ministry's pointer carries it.
    let link: URL | undefined;
    for (let i = 0; i < 100 && !link; i++) {
      const res = await fetch(`${sandbox.url}/__sandbox/ministerio/punteros?cuir=${cuir}`);
      const body = (await res.json()) as { punteros: Array<{ payload: Record<string, string> }> };
      if (body.punteros[0]) link = new URL(body.punteros[0].payload.url_verificacion);
      else await sleep(200);
    }
    const page = await api()
      .get(link!.pathname + link!.search)
      .set('Accept', 'application/json')
      .expect(200);
    expect(page.body.data.content_sha256).toBe(h);
    const pdf = await api()
      .get(`/v1/recetas/${id}/documento`)
      .set(headers)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    await withTools(['pdftotext'], "the print's hash", async () => {
      expect((await pdfText(pdf.body as Buffer)).replace(/\s+/g, '')).toContain(h);
    });
    return h;
  };

  it("a new registration: neither the key's fingerprint nor the content hash's salt confirms the DNI", async () => {
    // A platform's ordinary body, without SPEC 9.2's members: everything in it but the DNI is
    // in the dump, the worst case for the patient.
    const body = registrationBody({ documento_paciente: String(DNI) });
    const cuir = body.cuir as string;
    await issueBodyCuir(service!, { headers }, body);
    const res = await api()
      .post('/v1/recetas/registrar')
      .set(headers)
      .set('Idempotency-Key', randomUUID())
      .send(body)
      .expect(201);
    const id = res.body.data.id_transaccion as string;
    const h = await publicHash(cuir, id);

    const row = await dumpRow(cuir);
    const [{ request_hash }] = (
      await admin.query<{ request_hash: string }>(
        'SELECT request_hash FROM idempotency_keys WHERE key = $1',
        [res.request.getHeader('Idempotency-Key')],
      )
    ).rows;
    expect(bruteForce(requestHashAttack(row, request_hash))).toBeNull();
    expect(bruteForce(contentHashAttack(row, h))).toBeNull();

    // What the attacker lacks is the keys alone: with them, the same rebuilt request and row
    // match what is stored and shown.
    const fingerprintKey = claveDerivada(PEPPER, LABEL_HUELLA);
    expect(
      requestHash(fingerprintKey, 'POST', '/v1/recetas/registrar', requestOf(row, String(DNI))),
    ).toBe(request_hash);
    const { sal } = documentoYSal(
      abrir(parseClaves(KEYS).claves!, 'documento_paciente', cuir, row.documento_cifrado!),
    );
    expect(recetaContentHash({ ...row, documento_paciente: String(DNI), content_salt: sal })).toBe(
      h,
    );
  });

  it('a row stored before (its salt in clear) is sealed by `pacientes cifrar`: its hash unchanged, its DNI no longer confirmed', async () => {
    const body = registrationBody({ documento_paciente: String(DNI) });
    const cuir = body.cuir as string;
    await issueBodyCuir(service!, { headers }, body);
    const id = (await api().post('/v1/recetas/registrar').set(headers).send(body).expect(201)).body
      .data.id_transaccion as string;
    // Back to what a row registered before SPEC 11.2 holds: the DNI sealed alone (SPEC 10),
    // the content hash's 16 random bytes in clear beside it.
    const salt = randomBytes(16);
    await admin.query(
      `UPDATE recetas SET content_salt = $2, documento_cifrado = $3 WHERE id_transaccion = $1`,
      [id, salt, sellar(parseClaves(KEYS).claves!, 'documento_paciente', cuir, String(DNI))],
    );
    const h = await publicHash(cuir, id);
    // The old state is the weakness: the dump's salt and the public hash confirm the DNI.
    expect(bruteForce(contentHashAttack(await dumpRow(cuir), h))).toBe(String(DNI));

    await cliJson(['pacientes', 'cifrar'], {
      DATABASE_URL: runtimeUrl,
      DATABASE_MIGRATION_URL: db.url,
      PATIENT_DATA_KEYS: KEYS,
      API_SECRET_PEPPER: PEPPER,
    });
    const row = await dumpRow(cuir);
    expect(row.content_salt).toBeNull();
    expect(bruteForce(contentHashAttack(row, h))).toBeNull();
    // What was printed still verifies: the same hash, everywhere.
    expect(await publicHash(cuir, id)).toBe(h);
  });

  it("a patient's rate-limit budget, kept in the database, confirms no DNI", async () => {
    const body = registrationBody({ documento_paciente: String(DNI) });
    await issueBodyCuir(service!, { headers }, body);
    await api().post('/v1/recetas/registrar').set(headers).send(body).expect(201);
    // Ana María Fernández (DNI 30111222) reads her prescription with her Mi Argentina token.
    const cuil = `27${DNI}${cuitCheckDigit(`27${DNI}`)}`;
    const token = await sandboxCitizenToken(sandbox.url, cuil);
    await api()
      .get(`/v1/paciente/recetas/${body.cuir as string}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const keys = (
      await admin.query<{ key: string }>(
        `SELECT key FROM rate_limits WHERE key LIKE 'paciente-cuil:%'`,
      )
    ).rows.map((r) => r.key.slice('paciente-cuil:'.length));
    expect(keys).toHaveLength(1);
    // A CUIL is a prefix, the DNI and a check digit: four prefixes per candidate.
    const confirmed = bruteForce((dni) =>
      ['20', '23', '24', '27'].some((prefix) => {
        const candidate = `${prefix}${dni}${cuitCheckDigit(`${prefix}${dni}`)}`;
        return hash('sha256', candidate, 'base64url') === keys[0];
      }),
    );
    expect(confirmed).toBeNull();
  });
});
