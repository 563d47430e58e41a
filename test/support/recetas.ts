import { randomInt } from 'node:crypto';
import request from 'supertest';
import { buildCuir } from '../../src/cuir/cuir-format.js';
import type { TestClient } from './clients.js';
import type { TestApp } from './test-app.js';

let seq = 0;

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

export const register = (
  t: TestApp,
  c: TestClient,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  request(t.url)
    .post('/v1/recetas/registrar')
    .set(c.headers)
    .set(headers)
    .send(body as object);

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
