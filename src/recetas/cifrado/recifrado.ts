import type { DataSource } from 'typeorm';
import type { CifradoPaciente, PersonalesGuardados } from './cifrado-paciente.js';
import { COLUMNAS_PERSONALES, personalesEnClaro } from './datos-personales.js';

/** What one run of `pacientes cifrar` did. */
export interface RecifradoRun {
  /**
   * Rows sealed that held patient data in clear (registered before sealing): the document, or
   * SPEC 9.2's personal members.
   */
  en_claro: number;
  /** Rows re-sealed that were under another key than the current one (and nothing in clear). */
  otra_clave: number;
  clave_actual: string;
  lotes: number;
  duration_ms: number;
}

/** The key id inside a sealed value (datos-paciente.ts: byte 1 its length, from byte 2). */
const kidSql = (column: string) =>
  `substring(${column} from 3 for get_byte(${column}, 1)) <> convert_to($3, 'UTF8')`;

/**
 * One range of ids: the rows whose document or personal members are still in clear or sealed
 * under a key that is not `$3`, locked while their batch is re-sealed. FOR UPDATE without SKIP
 * LOCKED: a row the service holds (a dispensation's lock, milliseconds) is waited for, not
 * missed. The birth date is read as text, `YYYY-MM-DD`, as the service reads it.
 */
const PENDIENTES_SQL = `SELECT id_transaccion::text AS id, cuir, documento_paciente, documento_cifrado,
         ${COLUMNAS_PERSONALES.map((c) => (c === 'paciente_fecha_nacimiento' ? `${c}::text AS ${c}` : c)).join(', ')},
         personales_cifrado
    FROM recetas
   WHERE id_transaccion > $1::bigint AND id_transaccion <= $2::bigint
     AND (documento_cifrado IS NULL OR ${kidSql('documento_cifrado')}
          OR ${kidSql('personales_cifrado')}
          OR (personales_cifrado IS NULL AND num_nonnulls(${COLUMNAS_PERSONALES.join(', ')}) > 0))
   ORDER BY id_transaccion
     FOR UPDATE`;

/** A batch sealed: the document, and the personal members (their plaintext cleared). */
const SELLAR_SQL = `UPDATE recetas AS r
     SET documento_cifrado = v.cifrado, documento_indice = v.indice, documento_paciente = NULL,
         personales_cifrado = v.personales,
         ${COLUMNAS_PERSONALES.map((c) => `${c} = NULL`).join(', ')}
    FROM unnest($1::bigint[], $2::bytea[], $3::bytea[], $4::bytea[]) AS v(id, cifrado, indice, personales)
   WHERE r.id_transaccion = v.id`;

interface Pendiente extends PersonalesGuardados {
  id: string;
  cuir: string;
  documento_paciente: string | null;
  documento_cifrado: Buffer | null;
}

/**
 * Seals every prescription's document and personal members still in clear, and re-seals under
 * the current key every one sealed under another (the rotation), walking the ids in ranges of
 * `lote`, one short transaction each, so it runs while the service does: reads accept both
 * states, and the service never rewrites them. A row due for either is sealed whole (both
 * values under the current key). Rows registered after the walk started are sealed under
 * the current key already, as long as every instance runs with the same PATIENT_DATA_KEYS.
 * A row under a key PATIENT_DATA_KEYS does not hold stops the run, naming the key.
 */
export async function cifrarPendientes(
  ds: DataSource,
  cifrado: CifradoPaciente,
  opts: { lote?: number; onLote?: (hasta: string, de: string) => void } = {},
): Promise<RecifradoRun> {
  const started = Date.now();
  const lote = BigInt(opts.lote ?? 1000);
  const actual = cifrado.claves.actual;
  const [{ min, max }] = await ds.query<Array<{ min: string; max: string }>>(
    `SELECT coalesce(min(id_transaccion) - 1, 0)::text AS min,
            coalesce(max(id_transaccion), 0)::text AS max FROM recetas`,
  );
  const run: RecifradoRun = {
    en_claro: 0,
    otra_clave: 0,
    clave_actual: actual,
    lotes: 0,
    duration_ms: 0,
  };
  for (let desde = BigInt(min); desde < BigInt(max); desde += lote) {
    const hasta = desde + lote;
    await ds.transaction(async (m) => {
      const rows = await m.query<Pendiente[]>(PENDIENTES_SQL, [
        String(desde),
        String(hasta),
        actual,
      ]);
      if (rows.length === 0) return;
      const sellados = rows.map((r) => {
        if (r.documento_cifrado === null || (!r.personales_cifrado && personalesEnClaro(r)))
          run.en_claro++;
        else run.otra_clave++;
        return {
          ...cifrado.sellarDocumento(r.cuir, cifrado.documento(r)),
          personales_cifrado: cifrado.sellarPersonales(r.cuir, cifrado.personales(r)),
        };
      });
      await m.query(SELLAR_SQL, [
        rows.map((r) => r.id),
        sellados.map((s) => s.documento_cifrado),
        sellados.map((s) => s.documento_indice),
        sellados.map((s) => s.personales_cifrado),
      ]);
    });
    run.lotes++;
    opts.onLote?.(String(hasta), max);
  }
  run.duration_ms = Date.now() - started;
  return run;
}
