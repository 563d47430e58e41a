import { randomUUID } from 'node:crypto';
import type { CuirSupply } from './cuir-supply.js';
import type { RequestFactory } from './load.js';

import { runTag } from './run-tag.js';

let seq = 0;

/**
 * A CUIR no other bench request uses and nobody was issued (so never registered): group id
 * `1` + this run's tag + `0` + a counter (issued ranges use lanes 1–9, cuir-supply.ts; seeded
 * rows use group ids starting with 2–9, see db.ts), jurisdiction 02 like the fixture professional.
 */
export function uniqueCuir(): string {
  const groupId = `1${runTag}0${String(++seq).padStart(14, '0')}`;
  // platform 0001, repository 0001, jurisdiction 02, medication (01) bajo receta (02), item 01
  return `00010001020102${groupId}01`;
}

/**
 * SPEC 9.2's content, every member filled (test/support/recetas.ts fullContent): the
 * registrar-contenido scenario's bodies carry it, the registrar scenario's none.
 */
export const FULL_CONTENT = {
  paciente: {
    nombre: 'Ana María',
    apellido: 'Fernández',
    sexo: 'F',
    fecha_nacimiento: '1985-03-14',
  },
  cobertura: {
    financiador: 'PAMI',
    numero_afiliado: '15-12345678-9/00',
    codigo_rnos: '500807',
    plan: 'Plan 210',
  },
  diagnostico: { codigo: 'J02.9', descripcion: 'Faringitis aguda, no especificada' },
  items: [
    {
      nombre: 'Ibupirac 400',
      cantidad: 2,
      codigo: '1336421',
      dci: 'ibuprofeno',
      concentracion: '400 mg',
      forma_farmaceutica: 'comprimido recubierto',
      presentacion: 'envase x 20 comprimidos recubiertos',
      posologia: '1 comprimido cada 8 horas durante 5 días',
      sustituible: false,
    },
  ],
};

/** The registration body of test/support/recetas.ts (Laura Gómez, licence 123456 in 02). */
export function registrationBody(cuir: string, content = false): string {
  const n = ++seq;
  return JSON.stringify({
    documento_paciente: '30111222',
    matricula_profesional: '123456',
    refeps_id: '8123456',
    locacion: 'Hospital de Clínicas, consultorio 12',
    cuir,
    id_de_receta: `RX-${runTag}-${n}`,
    nombre_medicamento: 'Ibuprofeno',
    fecha_creacion: new Date(Date.now() - 60_000).toISOString(),
    items: [{ nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2, codigo: '1336421' }],
    ...(content ? FULL_CONTENT : {}),
  });
}

/**
 * POST /v1/recetas/registrar with the next CUIR issued to the client (`cuirs`) and a unique
 * Idempotency-Key each time; `onCuir` learns each CUIR sent (the dispensar scenario keeps them
 * to dispense); `content`: every SPEC 9.2 member (FULL_CONTENT).
 */
export function registrar(
  headers: Record<string, string>,
  cuirs: CuirSupply,
  onCuir?: (cuir: string) => void,
  content = false,
): RequestFactory {
  return () => {
    const cuir = cuirs.next();
    onCuir?.(cuir);
    return {
      method: 'POST',
      path: '/v1/recetas/registrar',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: registrationBody(cuir, content),
    };
  };
}

/** The 30-day window every listing asks for: the 30 days up to the bench's start (plus a margin). */
export function listingWindow(now = Date.now()): { desde: string; hasta: string } {
  return {
    desde: new Date(now - 30 * 86_400_000).toISOString(),
    hasta: new Date(now + 3_600_000).toISOString(),
  };
}

export function listar(
  headers: Record<string, string>,
  window: { desde: string; hasta: string },
  page: number,
  perPage = 50,
): RequestFactory {
  const path =
    `/v1/recetas/listar?fecha_desde=${encodeURIComponent(window.desde)}` +
    `&fecha_hasta=${encodeURIComponent(window.hasta)}&page=${page}&per_page=${perPage}`;
  return () => ({ method: 'GET', path, headers });
}

/**
 * The catalogue queries, in rotation: exact names and active ingredients, accented and
 * unaccented spellings, small typos, synthetic brand names, and lookups by code.
 */
export const SEARCH_QUERIES = [
  'ibuprofeno',
  'amoxicilína',
  'ibuprofen',
  'paracetmol',
  'losartán',
  'enalapril',
  'clonazepam',
  'omeprazol',
  'feproreum',
  'metformina clorhidrato',
  'amoxicilina 500',
  'almedreil',
];

export function buscar(headers: Record<string, string>, codes: string[]): RequestFactory {
  const paths = [
    ...SEARCH_QUERIES.map((q) => `/v1/medicamentos/buscar?q=${encodeURIComponent(q)}`),
    ...codes.map((c) => `/v1/medicamentos/buscar?code=${encodeURIComponent(c)}`),
  ];
  let i = 0;
  return () => ({ method: 'GET', path: paths[i++ % paths.length], headers });
}

/**
 * Searches that never repeat within a run, so each one misses the service's result cache and
 * pays the search SQL: the catalogue's active ingredients in rotation, with `per_page` and then
 * `page` stepping on every pass (the SQL ranks and counts every candidate whatever the page).
 */
export function buscarCold(headers: Record<string, string>, terms: string[]): RequestFactory {
  let n = 0;
  return () => {
    const i = n++;
    const q = terms[i % terms.length];
    const pass = Math.floor(i / terms.length);
    const perPage = 1 + (pass % 100);
    const page = 1 + (Math.floor(pass / 100) % 20);
    return {
      method: 'GET',
      path: `/v1/medicamentos/buscar?q=${encodeURIComponent(q)}&page=${page}&per_page=${perPage}`,
      headers,
    };
  };
}

export function verificar(headers: Record<string, string>): RequestFactory {
  const body = JSON.stringify({ documento: '25111222' });
  return () => ({
    method: 'POST',
    path: '/v1/profesional/verificar',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  });
}

/** GET /v1/recetas/verificar/{cuir} (contract §3), a CUIR from `next` each time. */
export function verificarCuir(headers: Record<string, string>, next: () => string): RequestFactory {
  return () => ({ method: 'GET', path: `/v1/recetas/verificar/${next()}`, headers });
}

/** A CUIT (11 digits) with a valid check digit (weights 5432765432, mod 11; 10 is never one). */
export function validCuit(prefix = '30', body = 71234567): string {
  for (let n = body; ; n++) {
    const digits = `${prefix}${String(n).padStart(8, '0')}`;
    const sum = [...digits].reduce(
      (a, d, i) => a + Number(d) * [5, 4, 3, 2, 7, 6, 5, 4, 3, 2][i],
      0,
    );
    const check = (11 - (sum % 11)) % 11;
    if (check !== 10) return `${digits}${check}`;
  }
}

/**
 * POST /v1/dispensas (contract §7): dispenses item 1 (all its units) of the prescription `next`
 * gives, as a pharmacy with a valid CUIT.
 */
export function dispensar(headers: Record<string, string>, next: () => string): RequestFactory {
  const farmacia = { cuit: validCuit(), nombre: 'Farmacia Bench' };
  return () => ({
    method: 'POST',
    path: '/v1/dispensas',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      cuir: next(),
      farmacia,
      fecha_dispensa: new Date().toISOString(),
      items: [{ item: 1, cantidad: 2 }],
    }),
  });
}

/** GET /v1/recetas/{id}/documento (contract §8): the PDFs of `ids`, in rotation. */
export function documento(headers: Record<string, string>, ids: string[]): RequestFactory {
  let n = 0;
  return () => ({ method: 'GET', path: `/v1/recetas/${ids[n++ % ids.length]}/documento`, headers });
}
