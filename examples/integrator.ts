/**
 * An integrator's flow against the Prescription Registry Service with a client generated from
 * its OpenAPI document (openapi-typescript types, openapi-fetch calls): generate a CUIR,
 * register a prescription under it, poll its ministry transaction until final, verify the
 * prescription by CUIR as a dispenser would, and download its printable document (a PDF, typed
 * binary by the generated client). With a citizen's Mi Argentina token, it then reads the same
 * prescription and its document as the patient does (Authorization: Bearer, no API keys). Every
 * path, parameter and body below is type-checked against the served document.
 *
 *   PRS_BASE_URL=http://127.0.0.1:3000 PRS_API_KEY=rk_… PRS_API_SECRET=rs_… \
 *     [PRS_CITIZEN_TOKEN=<the patient's token>] npm run integrator
 *
 * The client needs the scopes cuir:write, recetas:write, recetas:read and recetas:verify. The
 * citizen's token must carry the CUIL of the patient's document (PRS_DOCUMENTO_PACIENTE, default
 * 30111222); the sandbox issues one: POST /__sandbox/mi-argentina/token {"cuil": "27301112225"}.
 */
import { randomInt, randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/api.js';

type ErrorEnvelope = components['schemas']['ErrorEnvelopeDto'];
/** A printable document's answer, as the generated client types it: binary (Blob), not text. */
type Pdf<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/pdf': infer T } } } };
}
  ? T
  : never;

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`set ${name}`);
  return value;
};

const api = createClient<paths>({
  baseUrl: env('PRS_BASE_URL'),
  headers: { 'X-API-Key': env('PRS_API_KEY'), 'X-API-Secret': env('PRS_API_SECRET') },
});

/** The `data` of a success envelope, or a thrown error naming the service's error code. */
function unwrap<T>(
  step: string,
  r: { data?: { data: T }; error?: ErrorEnvelope; response: Response },
): T {
  if (r.data) return r.data.data;
  const e = r.error?.error;
  throw new Error(`${step}: HTTP ${r.response.status} ${e?.code ?? ''} ${e?.message ?? ''}`);
}

/** A PDF answer's bytes (the document's 200), or a thrown error naming the service's code. */
async function pdfOf(
  step: string,
  r: { data?: Blob; error?: ErrorEnvelope; response: Response },
): Promise<Blob> {
  if (!r.data) {
    const e = r.error?.error;
    throw new Error(`${step}: HTTP ${r.response.status} ${e?.code ?? ''} ${e?.message ?? ''}`);
  }
  const type = r.response.headers.get('Content-Type');
  const magic = new TextDecoder().decode(await r.data.slice(0, 5).arrayBuffer());
  if (type !== 'application/pdf' || magic !== '%PDF-') {
    throw new Error(`${step}: not a PDF (${type ?? 'no Content-Type'}, starts ${magic})`);
  }
  return r.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  // 1. A CUIR for the prescription: groupId is the platform's own 25-digit key.
  const groupId = `${Date.now()}${randomInt(1e9)}`.padStart(25, '0').slice(-25);
  const generated = unwrap(
    'generate CUIR',
    await api.POST('/v1/cuir/generar', {
      body: { groupId, itemId: '01', state: '02', prescriptionType: '01', medicationType: '02' },
    }),
  );
  console.log(`CUIR ${generated.cuir} (jurisdiction ${generated.components.jurisdiction})`);

  // 2. Register it; the Idempotency-Key makes a retry (same key, same body) safe.
  const idempotencyKey = randomUUID();
  const prescription = {
    documento_paciente: env('PRS_DOCUMENTO_PACIENTE', '30111222'),
    matricula_profesional: env('PRS_MATRICULA', '123456'),
    locacion: 'Hospital de Clínicas, consultorio 12',
    cuir: generated.cuir,
    fecha_creacion: new Date().toISOString(),
    items: [{ nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2 }],
  };
  const register = () =>
    api.POST('/v1/recetas/registrar', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: prescription,
    });
  const first = await register();
  const registered = unwrap('register', first);
  console.log(`registered: transaction ${registered.id_transaccion}, ${registered.estado}`);
  const again = await register();
  const replayed = again.response.headers.get('Idempotent-Replayed') === 'true';
  if (unwrap('register again', again).id_transaccion !== registered.id_transaccion || !replayed) {
    throw new Error('a retry with the same Idempotency-Key registered twice');
  }

  // 3. Poll the ministry transaction until it is final.
  const until = Date.now() + Number(env('PRS_POLL_TIMEOUT_MS', '60000'));
  for (;;) {
    const tx = unwrap(
      'track',
      await api.GET('/v1/transacciones/{id_transaccion}', {
        params: { path: { id_transaccion: registered.id_transaccion } },
      }),
    );
    if (tx.estado !== 'PENDING') {
      console.log(
        `transaction ${tx.estado} after ${tx.intentos} attempt(s): ${tx.ministerio_ref ?? ''}`,
      );
      break;
    }
    if (Date.now() > until) throw new Error('the transaction is still PENDING');
    await sleep(500);
  }

  // 4. Verify by CUIR, as a pharmacy would (it holds only the CUIR).
  const verified = unwrap(
    'verify',
    await api.GET('/v1/recetas/verificar/{cuir}', { params: { path: { cuir: generated.cuir } } }),
  );
  console.log(
    `verified ${verified.cuir}: ${verified.estado}, ${verified.items.length} item(s), sha256 ${verified.content_sha256}`,
  );

  // 5. The printable prescription, for its owner: a PDF, read as a Blob (parseAs), which is
  //    what the generated client says the answer is.
  const document: Pdf<'/v1/recetas/{id_transaccion}/documento'> = await pdfOf(
    'document',
    await api.GET('/v1/recetas/{id_transaccion}/documento', {
      params: { path: { id_transaccion: registered.id_transaccion } },
      parseAs: 'blob',
    }),
  );
  console.log(`document: ${document.size} bytes of application/pdf`);

  // 6. The patient, with the citizen's own token and no API keys (the document's MiArgentina
  //    bearer scheme on /v1/paciente): the prescription and the same printable document.
  const token = process.env.PRS_CITIZEN_TOKEN;
  if (!token) {
    console.log('patient: skipped (set PRS_CITIZEN_TOKEN)');
    return;
  }
  const citizen = createClient<paths>({
    baseUrl: env('PRS_BASE_URL'),
    headers: { Authorization: `Bearer ${token}` },
  });
  const mine = unwrap(
    'patient',
    await citizen.GET('/v1/paciente/recetas/{cuir}', {
      params: { path: { cuir: generated.cuir } },
    }),
  );
  console.log(
    `patient sees ${mine.cuir}: ${mine.estado_receta} until ${mine.vigencia_hasta}, ${mine.items.length} item(s)`,
  );
  const own: Pdf<'/v1/paciente/recetas/{cuir}/documento'> = await pdfOf(
    'patient document',
    await citizen.GET('/v1/paciente/recetas/{cuir}/documento', {
      params: { path: { cuir: generated.cuir } },
      parseAs: 'blob',
    }),
  );
  console.log(`patient document: ${own.size} bytes of application/pdf`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
