import { randomInt } from 'node:crypto';
import request from 'supertest';
import { buildCuir, parseCuir } from '../../src/cuir/cuir-format.js';
import type { TestClient } from './clients.js';
import type { TestApp } from './test-app.js';

let seq = 0;

/** A running service: a test app, or a service process of its own. */
type Service = Pick<TestApp, 'url'>;
/** Whoever calls: a test client, or any holder of a client's headers. */
type Caller = Pick<TestClient, 'headers'>;

/** A CUIR no other test uses: jurisdiction 02 (CABA) by default, medication bajo receta. */
export function newCuir(
  over: { jurisdiction?: string; prescriptionType?: string; medicationType?: string } = {},
): string {
  const groupId = `${Date.now()}${randomInt(1e9)}${++seq}`.padStart(25, '0').slice(-25);
  return buildCuir({
    platform: '0001',
    repository: '0001',
    jurisdiction: over.jurisdiction ?? '02',
    prescriptionType: over.prescriptionType ?? '01',
    medicationType:
      over.medicationType ??
      (over.prescriptionType && over.prescriptionType !== '01' ? '00' : '02'),
    groupId,
    itemId: '01',
  });
}

/** A valid registration for the contract §5 fixture Laura Gómez (licence 123456, enabled in 02). */
export function registrationBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    documento_paciente: '30111222',
    matricula_profesional: '123456',
    refeps_id: '8123456',
    locacion: 'Hospital de Clínicas, consultorio 12',
    cuir: newCuir(),
    id_de_receta: `RX-${++seq}`,
    nombre_medicamento: 'Ibuprofeno',
    fecha_creacion: new Date(Date.now() - 60_000).toISOString(),
    items: [{ nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2, codigo: '1336421' }],
    ...over,
  };
}

/**
 * Asks POST /v1/cuir/generar to issue `cuir` to `c` (only issued CUIRs register, contract §3):
 * its components as a generation request. A 409 (issued already — to `c`, or to another client,
 * whose registration then answers 422 CUIR_NOT_OWNED) is what a test may mean, so it is not an
 * error here; anything else is.
 */
export async function issueCuir(t: Service, c: TestClient, cuir: string): Promise<void> {
  const res = await issuance(t, c, cuir);
  if (res.status !== 201 && res.status !== 409) {
    throw new Error(`issuing ${cuir}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The answer of POST /v1/cuir/generar asked for `cuir`'s components, whatever it is. */
export const issuance = (t: Service, c: Caller, cuir: string) =>
  request(t.url).post('/v1/cuir/generar').set(c.headers).send(generationBodyFor(cuir));

/** The generation request whose answer is `cuir` (for a client with `cuir`'s platform id). */
export function generationBodyFor(cuir: string) {
  const parsed = parseCuir(cuir);
  if (!parsed.ok) throw new Error(`not a CUIR: ${cuir}`);
  const { jurisdiction, prescriptionType, medicationType, groupId, itemId } = parsed.components;
  return { state: jurisdiction, prescriptionType, medicationType, groupId, itemId };
}

/**
 * Asks generation for the CUIR a registration body carries, when it carries one, as a platform
 * does before registering; for tests that send registrations their own way too (raw bytes,
 * several processes). Generation's answer is not judged: a CUIR it did not issue to `c` shows as
 * the registration's 422 CUIR_NOT_OWNED, and a body without a CUIR is the test's to get wrong.
 * True when generation issued it just now (a new `issued_cuirs` row).
 */
export async function issueBodyCuir(t: Service, c: Caller, body: unknown): Promise<boolean> {
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return false;
    }
  }
  const cuir = (parsed as { cuir?: unknown } | null)?.cuir;
  if (typeof cuir !== 'string' || !parseCuir(cuir).ok) return false;
  return (await issuance(t, c, cuir)).status === 201;
}

/** POST /v1/recetas/registrar as sent: the CUIR is registered only if it was issued to `c`. */
export const postRegistration = (
  t: Service,
  c: Caller,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  request(t.url)
    .post('/v1/recetas/registrar')
    .set(c.headers)
    .set(headers)
    .send(body as object);

/**
 * Registers as a provider platform does: the body's CUIR (when it is one) issued to `c` first,
 * then POST /v1/recetas/registrar. Awaiting the result gives supertest's response; `.expect()`
 * chains as on a request.
 */
export function register(
  t: Service,
  c: Caller,
  body: unknown,
  headers: Record<string, string> = {},
): Registration {
  const sent = issueBodyCuir(t, c, body).then(() => postRegistration(t, c, body, headers));
  return Object.assign(sent, {
    expect: (status: number) => sent.then((r) => (r.status === status ? r : failed(status, r))),
  });
}

type Registration = Promise<request.Response> & {
  expect(status: number): Promise<request.Response>;
};

function failed(status: number, r: request.Response): never {
  throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
}

export interface Tracking {
  id_transaccion: string;
  estado: string;
  intentos: number;
  ultimo_intento_at: string | null;
  proximo_intento_at: string | null;
  ministerio_ref: string | null;
  historial: Array<{
    evento: string;
    estado: string;
    intento: number | null;
    resultado: string | null;
    detalle: string | null;
  }>;
}

/** Polls the tracking endpoint until the transaction is final (or the time runs out). */
export async function waitForFinal(
  t: TestApp,
  c: TestClient,
  id: string,
  timeoutMs = 20_000,
): Promise<Tracking> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(t.url).get(`/v1/transacciones/${id}`).set(c.headers);
    if (res.body.data?.estado && res.body.data.estado !== 'PENDING') return res.body.data;
    if (Date.now() > until)
      throw new Error(`transaction ${id} still ${JSON.stringify(res.body.data)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * SPEC 9.2's content, every member filled (Ana María Fernández, the RENAPER fixture of
 * registrationBody's document): spread into registrationBody. Items are the sandbox
 * catalogue's (code 1336421, IBUPIRAC 400 mg x 20, the README's; 2393070, AMOXIDAL 500 x 16).
 */
export function fullContent(): Record<string, unknown> {
  return {
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
        sustituible: true,
      },
      {
        nombre: 'Amoxidal 500',
        cantidad: 1,
        codigo: '2393070',
        dci: 'amoxicilina',
        concentracion: '500 mg',
        forma_farmaceutica: 'comprimido',
        presentacion: 'envase x 16 comprimidos',
        posologia: '1 comprimido cada 8 horas durante 7 días',
        sustituible: false,
      },
    ],
  };
}

/**
 * The SET list that puts a prescription registered with fullContent() back in the state of a
 * row registered before SPEC 9.2's personal members were sealed (migration 1795728700000):
 * those members in clear, no seal. `over` writes a column differently (an SQL expression).
 */
export function personalesEnClaroSet(over: Record<string, string> = {}): string {
  const columns: Record<string, string> = {
    personales_cifrado: 'NULL',
    paciente_nombre: `'Ana María'`,
    paciente_apellido: `'Fernández'`,
    paciente_sexo: `'F'`,
    paciente_fecha_nacimiento: `'1985-03-14'`,
    cobertura_numero_afiliado: `'15-12345678-9/00'`,
    diagnostico_codigo: `'J02.9'`,
    diagnostico_descripcion: `'Faringitis aguda, no especificada'`,
    ...over,
  };
  return Object.entries(columns)
    .map(([c, v]) => `${c} = ${v}`)
    .join(', ');
}
