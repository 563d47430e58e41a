/** The pointer the regulation asks every repository to report for each prescription. */
export interface Puntero {
  cuir: string;
  documento_paciente: string;
  fecha_creacion: string;
  refeps_id?: string;
  matricula_profesional: string;
  id_transaccion: string;
  url_verificacion: string;
}

/** A cancellation to tell the ministry about: the pointer of `cuir` no longer stands. */
export interface AnulacionPuntero {
  cuir: string;
  id_transaccion: string;
  motivo: string;
  /** When the owner cancelled it (ISO 8601). */
  fecha_anulacion: string;
}

export interface MinisterioReceipt {
  /** The ministry's id of the pointer (its receipt). */
  ref: string;
  /** The ministry already held a pointer for this CUIR (a repeated delivery). */
  duplicate: boolean;
}

/** The ministry refused for good (4xx other than auth/rate): no retry will help. */
export class MinisterioRejection extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(`ministry rejected the request: ${code} ${reason}`);
    this.name = 'MinisterioRejection';
  }
}

/**
 * Port of the ministry's pointer service: the receipt, MinisterioRejection for a final refusal,
 * or UPSTREAM_UNAVAILABLE for anything transient (retried by the notification job).
 */
export abstract class MinisterioClient {
  /** Reports a prescription's pointer; idempotent on the CUIR. */
  abstract deliver(pointer: Puntero): Promise<MinisterioReceipt>;

  /** A pointer's prescription was cancelled; idempotent on the CUIR, unknown CUIR: a rejection. */
  abstract anular(anulacion: AnulacionPuntero): Promise<MinisterioReceipt>;
}
