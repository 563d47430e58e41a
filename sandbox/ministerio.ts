/**
 * Ministry of Health (DNSISA) pointer endpoint. The real interface is not public, so this is
 * the small API the service speaks to it:
 *
 *   POST /oauth/token   application/x-www-form-urlencoded
 *        grant_type=client_credentials&client_id=…&client_secret=…  (or HTTP Basic id:secret)
 *        200 {access_token, token_type: "Bearer", expires_in}  401 {error: "invalid_client"}
 *        400 {error: "invalid_request" | "unsupported_grant_type"}
 *   POST /v1/punteros   Authorization: Bearer <token>, application/json
 *        {cuir (41 digits), documento_paciente (7–8 digits), fecha_creacion (ISO 8601 date-time
 *         with offset), refeps_id (optional string, 1–100), matricula_profesional (1–20 letters
 *         or digits), id_transaccion (decimal string), url_verificacion (http/https URL)}
 *        201 {id, cuir, estado: "RECIBIDO"}                       new CUIR
 *        200 {id, cuir, estado: "RECIBIDO", duplicado: true}      CUIR already held: same id
 *        400 {error: {codigo: "DATOS_INVALIDOS", mensaje}}        401 {error: {codigo: "NO_AUTORIZADO"}}
 *        422 {error: {codigo: "RECHAZADO", mensaje}}              503 when down
 *   Unknown body fields are ignored. Idempotent on the CUIR: one pointer per CUIR, ever; each
 *   accepted delivery adds one to its `recepciones`.
 *   POST /v1/punteros/{cuir}/anulacion   Authorization: Bearer <token>, application/json
 *        {id_transaccion (decimal string), motivo (1–200 characters), fecha_anulacion (ISO 8601
 *         date-time with offset)}
 *        201 {id, cuir, estado: "ANULADO"}                        the pointer is now cancelled
 *        200 {id, cuir, estado: "ANULADO", duplicado: true}       cancelled already: kept as first told
 *        404 {error: {codigo: "NO_ENCONTRADO"}}                   no pointer with that CUIR
 *        400 DATOS_INVALIDOS, 401, 422 RECHAZADO, 503 as above
 *   Idempotent on the CUIR: the pointer is marked `anulada` once (with the first motivo and
 *   time); each accepted notice adds one to its `anulaciones`, never to `recepciones`.
 *
 * Faults apply to the two POSTs (pointer and cancellation), so a fault rate counts deliveries; the token endpoint
 * keeps working (a ministry that is down for deliveries but hands out tokens is the harder case).
 */
import { randomBytes } from 'node:crypto';
import {
  isPlainObject,
  json,
  jsonError,
  parseJson,
  type Reply,
  type SandboxRequest,
} from './http.js';
import type { InjectedMode } from './faults.js';
import type { EmulatedSystem } from './system.js';

export interface MinisterioCredentials {
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
}

export interface Puntero {
  id: string;
  cuir: string;
  recepciones: number;
  primera_recepcion_at: string;
  ultima_recepcion_at: string;
  payload: Record<string, unknown>;
  /** Cancelled by its repository (set once, by the first accepted notice). */
  anulada: boolean;
  motivo_anulacion: string | null;
  anulada_at: string | null;
  /** Accepted cancellation notices (repeats included). */
  anulaciones: number;
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Pure: the problems with a pointer body, empty when it is acceptable. */
export function punteroProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const str = (field: string, ok: (v: string) => boolean, rule: string, optional = false) => {
    const value = body[field];
    if (optional && (value === undefined || value === null)) return;
    if (typeof value !== 'string' || !ok(value)) problems.push(`${field}: ${rule}`);
  };
  str('cuir', (v) => /^\d{41}$/.test(v), 'required, 41 digits');
  str('documento_paciente', (v) => /^\d{7,8}$/.test(v), 'required, 7 or 8 digits');
  str(
    'fecha_creacion',
    (v) => ISO_WITH_OFFSET.test(v) && !Number.isNaN(Date.parse(v)),
    'required, ISO 8601 date-time with offset',
  );
  str('refeps_id', (v) => v.length >= 1 && v.length <= 100, '1 to 100 characters', true);
  str(
    'matricula_profesional',
    (v) => /^[A-Za-z0-9]{1,20}$/.test(v),
    'required, 1-20 letters/digits',
  );
  str('id_transaccion', (v) => /^\d{1,20}$/.test(v), 'required, decimal string');
  str('url_verificacion', isHttpUrl, 'required, http or https URL');
  return problems;
}

/** Pure: the problems with a cancellation body, empty when it is acceptable. */
export function anulacionProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { id_transaccion, motivo, fecha_anulacion } = body;
  if (typeof id_transaccion !== 'string' || !/^\d{1,20}$/.test(id_transaccion))
    problems.push('id_transaccion: required, decimal string');
  if (typeof motivo !== 'string' || motivo.length < 1 || motivo.length > 200)
    problems.push('motivo: required, 1 to 200 characters');
  if (
    typeof fecha_anulacion !== 'string' ||
    !ISO_WITH_OFFSET.test(fecha_anulacion) ||
    Number.isNaN(Date.parse(fecha_anulacion))
  )
    problems.push('fecha_anulacion: required, ISO 8601 date-time with offset');
  return problems;
}

export class MinisterioState {
  private readonly tokens = new Map<string, number>();
  private readonly punteros = new Map<string, Puntero>();
  private seq = 0;

  constructor(private readonly creds: MinisterioCredentials) {}

  reset(): void {
    this.tokens.clear();
    this.punteros.clear();
    this.seq = 0;
  }

  issueToken(now = Date.now()): string {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, now + this.creds.tokenTtlSeconds * 1000);
    return token;
  }

  isValidToken(token: string, now = Date.now()): boolean {
    const expiresAt = this.tokens.get(token);
    if (expiresAt === undefined) return false;
    if (expiresAt <= now) {
      this.tokens.delete(token);
      return false;
    }
    return true;
  }

  /** Records one accepted delivery; `created` tells a new pointer from a repeated CUIR. */
  receive(payload: Record<string, unknown>): { puntero: Puntero; created: boolean } {
    const cuir = payload.cuir as string;
    const at = new Date().toISOString();
    const held = this.punteros.get(cuir);
    if (held) {
      held.recepciones += 1;
      held.ultima_recepcion_at = at;
      held.payload = payload;
      return { puntero: held, created: false };
    }
    this.seq += 1;
    const puntero: Puntero = {
      id: `PTR-${String(this.seq).padStart(6, '0')}`,
      cuir,
      recepciones: 1,
      primera_recepcion_at: at,
      ultima_recepcion_at: at,
      payload,
      anulada: false,
      motivo_anulacion: null,
      anulada_at: null,
      anulaciones: 0,
    };
    this.punteros.set(cuir, puntero);
    return { puntero, created: true };
  }

  /**
   * Records one accepted cancellation notice: the first marks the pointer cancelled (`first`),
   * a repeat changes nothing but the count. Null for a CUIR with no pointer.
   */
  cancel(cuir: string, motivo: string): { puntero: Puntero; first: boolean } | null {
    const held = this.punteros.get(cuir);
    if (!held) return null;
    held.anulaciones += 1;
    if (held.anulada) return { puntero: held, first: false };
    held.anulada = true;
    held.motivo_anulacion = motivo;
    held.anulada_at = new Date().toISOString();
    return { puntero: held, first: true };
  }

  list(cuir?: string): Puntero[] {
    const all = [...this.punteros.values()];
    return cuir === undefined ? all : all.filter((p) => p.cuir === cuir);
  }
}

function clientCredentials(req: SandboxRequest, form: URLSearchParams): [string, string] | null {
  const auth = req.headers.authorization ?? '';
  if (/^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    return [
      decodeURIComponent(decoded.slice(0, colon)),
      decodeURIComponent(decoded.slice(colon + 1)),
    ];
  }
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  return id !== null && secret !== null ? [id, secret] : null;
}

const unauthorized = (): Reply => ({
  ...jsonError(401, 'NO_AUTORIZADO', 'Token ausente, desconocido o vencido'),
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'www-authenticate': 'Bearer error="invalid_token"',
  },
});

export function createMinisterio(
  state: MinisterioState,
  creds: MinisterioCredentials,
): EmulatedSystem {
  const token = (req: SandboxRequest): Reply => {
    const form = new URLSearchParams(req.body);
    const grant = form.get('grant_type');
    if (grant === null) return json(400, { error: 'invalid_request' });
    if (grant !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' });
    const given = clientCredentials(req, form);
    if (!given || given[0] !== creds.clientId || given[1] !== creds.clientSecret) {
      return json(
        401,
        { error: 'invalid_client' },
        { 'www-authenticate': 'Basic realm="ministerio"' },
      );
    }
    return json(
      200,
      { access_token: state.issueToken(), token_type: 'Bearer', expires_in: creds.tokenTtlSeconds },
      { 'cache-control': 'no-store' },
    );
  };

  const punteros = (req: SandboxRequest, _p: string[], injected?: InjectedMode): Reply => {
    const auth = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!auth || !state.isValidToken(auth[1])) return unauthorized();
    if (injected === 'reject') {
      return jsonError(422, 'RECHAZADO', 'El puntero fue rechazado por el repositorio central');
    }
    const body = parseJson(req.body);
    if (!isPlainObject(body)) {
      return jsonError(400, 'DATOS_INVALIDOS', 'El cuerpo debe ser un objeto JSON');
    }
    const problems = punteroProblems(body);
    if (problems.length > 0) return jsonError(400, 'DATOS_INVALIDOS', problems.join('; '));
    const { puntero, created } = state.receive(body);
    const answer = { id: puntero.id, cuir: puntero.cuir, estado: 'RECIBIDO' };
    return created ? json(201, answer) : json(200, { ...answer, duplicado: true });
  };

  const anulacion = (req: SandboxRequest, [cuir]: string[], injected?: InjectedMode): Reply => {
    const auth = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!auth || !state.isValidToken(auth[1])) return unauthorized();
    if (injected === 'reject') {
      return jsonError(422, 'RECHAZADO', 'La anulación fue rechazada por el repositorio central');
    }
    const body = parseJson(req.body);
    if (!isPlainObject(body)) {
      return jsonError(400, 'DATOS_INVALIDOS', 'El cuerpo debe ser un objeto JSON');
    }
    const problems = anulacionProblems(body);
    if (problems.length > 0) return jsonError(400, 'DATOS_INVALIDOS', problems.join('; '));
    const done = state.cancel(cuir, body.motivo as string);
    if (!done) return jsonError(404, 'NO_ENCONTRADO', `No hay puntero para el CUIR ${cuir}`);
    const answer = { id: done.puntero.id, cuir, estado: 'ANULADO' };
    return done.first ? json(201, answer) : json(200, { ...answer, duplicado: true });
  };

  return {
    service: 'ministerio',
    routes: [
      { method: 'POST', path: /^\/oauth\/token$/, handle: token, faultable: false },
      { method: 'POST', path: /^\/v1\/punteros$/, handle: punteros },
      { method: 'POST', path: /^\/v1\/punteros\/(\d{41})\/anulacion$/, handle: anulacion },
    ],
    unavailable: () =>
      jsonError(503, 'SERVICIO_NO_DISPONIBLE', 'Repositorio central temporalmente no disponible'),
    reset: () => state.reset(),
  };
}
