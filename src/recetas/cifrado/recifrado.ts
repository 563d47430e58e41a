import type { DataSource } from 'typeorm';
import type {
  CifradoPaciente,
  DocumentoGuardado,
  PersonalesGuardados,
} from './cifrado-paciente.js';
import { DatoPacienteIlegible } from './datos-paciente.js';
import { COLUMNAS_PERSONALES, personalesEnClaro } from './datos-personales.js';

/** What one run of `pacientes cifrar` did, and what is left. */
export interface RecifradoRun {
  /** Rows sealed that held the document, the salt or a personal member in clear. */
  en_claro: number;
  /** Rows re-sealed that were under another key than the current one (and nothing in clear). */
  otra_clave: number;
  clave_actual: string;
  /** Transactions that re-sealed rows. */
  lotes: number;
  /** Counted after the walk: in clear, or by the other key they are under (one not held). */
  restantes: { total: number; en_claro: number; por_clave: Record<string, number> };
  duration_ms: number;
}
export type Restantes = RecifradoRun['restantes'];

/** The key id inside a sealed value (datos-paciente.ts: byte 1 its length, from byte 2). */
const kid = (column: string) => `substring(${column} from 3 for get_byte(${column}, 1))`;

/** A row that holds something in clear. */
const EN_CLARO = `(documento_cifrado IS NULL OR content_salt IS NOT NULL
          OR (personales_cifrado IS NULL AND num_nonnulls(${COLUMNAS_PERSONALES.join(', ')}) > 0))`;

/** A row with work to do: something in clear, or a value sealed under a key that is not `$k`. */
const pendiente = (k: string) => `(${EN_CLARO}
          OR ${kid('documento_cifrado')} <> convert_to(${k}, 'UTF8')
          OR ${kid('personales_cifrado')} <> convert_to(${k}, 'UTF8'))`;

/**
 * The next batch: the first `$2` rows after id `$1` with work to do under key `$3`, locked. A
 * keyset walk, as ids jump by 10^9 at every month; no SKIP LOCKED: a locked row is waited for.
 */
const PENDIENTES_SQL = `SELECT id_transaccion::text AS id, cuir, documento_paciente, documento_cifrado,
         content_salt,
         ${COLUMNAS_PERSONALES.map((c) => (c === 'paciente_fecha_nacimiento' ? `${c}::text AS ${c}` : c)).join(', ')},
         personales_cifrado
    FROM recetas
   WHERE id_transaccion > $1::bigint AND ${pendiente('$3')}
   ORDER BY id_transaccion
   LIMIT $2
     FOR UPDATE`;

/** A batch sealed: the document with its salt, and the personal members (their plaintext cleared). */
const SELLAR_SQL = `UPDATE recetas AS r
     SET documento_cifrado = v.cifrado, documento_indice = v.indice, documento_paciente = NULL,
         content_salt = NULL, personales_cifrado = v.personales,
         ${COLUMNAS_PERSONALES.map((c) => `${c} = NULL`).join(', ')}
    FROM unnest($1::bigint[], $2::bytea[], $3::bytea[], $4::bytea[]) AS v(id, cifrado, indice, personales)
   WHERE r.id_transaccion = v.id`;

/** What is left, by the key it is under (null: something in clear). */
const RESTANTES_SQL = `SELECT CASE WHEN ${EN_CLARO} THEN NULL
              WHEN ${kid('documento_cifrado')} <> convert_to($1, 'UTF8')
                THEN convert_from(${kid('documento_cifrado')}, 'UTF8')
              ELSE convert_from(${kid('personales_cifrado')}, 'UTF8') END AS clave,
         count(*)::int AS n
    FROM recetas
   WHERE ${pendiente('$1')}
   GROUP BY 1`;

type Pendiente = PersonalesGuardados & DocumentoGuardado & { id: string };

/**
 * Seals every row's patient data still in clear and re-seals under the current key those under
 * another (the rotation), in batches of `lote`, one short transaction each, while the service
 * runs (reads accept both states). A row under a key not held is left and counted in `restantes`.
 */
export async function cifrarPendientes(
  ds: DataSource,
  cifrado: CifradoPaciente,
  opts: { lote?: number } = {},
): Promise<RecifradoRun> {
  const started = Date.now();
  const lote = opts.lote ?? 1000;
  const actual = cifrado.claves.actual;
  const run: RecifradoRun = {
    en_claro: 0,
    otra_clave: 0,
    clave_actual: actual,
    lotes: 0,
    restantes: { total: 0, en_claro: 0, por_clave: {} },
    duration_ms: 0,
  };
  let ultimo = '0';
  for (;;) {
    const leidas = await ds.transaction(async (m) => {
      const rows = await m.query<Pendiente[]>(PENDIENTES_SQL, [ultimo, lote, actual]);
      if (rows.length === 0) return 0;
      ultimo = rows[rows.length - 1].id;
      const ids: string[] = [];
      const cifrados: Buffer[] = [];
      const indices: Buffer[] = [];
      const personales: Array<Buffer | null> = [];
      for (const r of rows) {
        let sellado;
        try {
          const { documento, sal } = cifrado.abrirDocumento(r);
          sellado = {
            ...cifrado.sellarDocumento(r.cuir, documento, sal),
            personales: cifrado.sellarPersonales(r.cuir, cifrado.personales(r)),
          };
        } catch (err) {
          // Counted in `restantes` after the walk, by its key.
          if (err instanceof DatoPacienteIlegible) continue;
          throw err;
        }
        const claro =
          r.documento_cifrado === null ||
          r.content_salt !== null ||
          (!r.personales_cifrado && personalesEnClaro(r));
        if (claro) run.en_claro++;
        else run.otra_clave++;
        ids.push(r.id);
        cifrados.push(sellado.documento_cifrado);
        indices.push(sellado.documento_indice);
        personales.push(sellado.personales);
      }
      if (ids.length > 0) await m.query(SELLAR_SQL, [ids, cifrados, indices, personales]);
      return rows.length;
    });
    if (leidas > 0) run.lotes++;
    if (leidas < lote) break;
  }
  for (const { clave, n } of await ds.query<Array<{ clave: string | null; n: number }>>(
    RESTANTES_SQL,
    [actual],
  )) {
    run.restantes.total += n;
    if (clave === null) run.restantes.en_claro += n;
    else run.restantes.por_clave[clave] = n;
  }
  run.duration_ms = Date.now() - started;
  return run;
}
