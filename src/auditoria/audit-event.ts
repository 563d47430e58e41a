/** The kinds of event contract §8 lists (the column takes any lower-case word). */
export const AUDIT_TIPOS = [
  'registro',
  'anulacion',
  'verificacion',
  'reserva',
  'reserva_liberada',
  'dispensa',
  'reversion',
  'acceso_paciente',
  'documento',
  'verificacion_publica',
  'fiscalizacion',
] as const;

export type AuditTipo = (typeof AUDIT_TIPOS)[number];

/** The actor of a patient's own access (contract §8); any other actor is an API client's id. */
export const ACTOR_PACIENTE = 'paciente';
/** The actor of a view of the public verification page (contract §9.4): nobody identified. */
export const ACTOR_PUBLICO = 'publico';

/** One event as the caller describes it. No personal data: only the CUIR and ids. */
export interface AuditEvent {
  tipo: AuditTipo | (string & {});
  /** Stored only when it is a well-formed CUIR (41 digits): a refused request may carry junk. */
  cuir?: string | null;
  idTransaccion?: string | number | bigint | null;
  /** The API client's id (uuid), or `paciente`/`publico`. */
  actor: string;
  /** `ok`, or the error code the action answered (`PRESCRIPTION_CANCELLED`…). */
  resultado: string;
  /** The id the service minted for the request (a UUID); dropped when malformed. */
  requestId?: string | null;
  /** The client's own X-Request-Id, kept apart so it never passes for the service's. */
  clientRequestId?: string | null;
}

export interface AuditEventRow {
  tipo: string;
  cuir: string | null;
  id_transaccion: string | null;
  actor: string;
  resultado: string;
  request_id: string | null;
  client_request_id: string | null;
}

const TIPO = /^[a-z][a-z0-9_]{1,39}$/;
const ACTOR = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z][a-z_]{1,31})$/;
const RESULTADO = /^(ok|[A-Z][A-Z0-9_]{1,63})$/;
const CUIR = /^[0-9]{41}$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ID = /^[1-9][0-9]{0,18}$/;

/** A programming error (an unknown actor format, a lower-case result…), never a user's. */
export class InvalidAuditEvent extends Error {
  constructor(field: string, value: unknown) {
    super(`invalid audit event ${field}: ${JSON.stringify(value)}`);
    this.name = 'InvalidAuditEvent';
  }
}

/**
 * The row for an event, the table's CHECKs applied here to name the bad field rather than abort
 * the caller's statement. Malformed optional fields (from a request) are dropped: a refusal
 * must still be logged.
 */
export function auditEventRow(e: AuditEvent): AuditEventRow {
  if (!TIPO.test(e.tipo)) throw new InvalidAuditEvent('tipo', e.tipo);
  const actor = e.actor.toLowerCase();
  if (!ACTOR.test(actor)) throw new InvalidAuditEvent('actor', e.actor);
  if (!RESULTADO.test(e.resultado)) throw new InvalidAuditEvent('resultado', e.resultado);
  const id = e.idTransaccion === null || e.idTransaccion === undefined ? '' : `${e.idTransaccion}`;
  return {
    tipo: e.tipo,
    cuir: e.cuir && CUIR.test(e.cuir) ? e.cuir : null,
    id_transaccion: ID.test(id) && BigInt(id) <= 9223372036854775807n ? id : null,
    actor,
    resultado: e.resultado,
    request_id: e.requestId && REQUEST_ID.test(e.requestId) ? e.requestId : null,
    client_request_id:
      e.clientRequestId && REQUEST_ID.test(e.clientRequestId) ? e.clientRequestId : null,
  };
}
