/** The pointer the regulation asks every repository to report for each prescription. */
export interface MinistryPointer {
  cuir: string;
  documento_paciente: string;
  fecha_creacion: string;
  refeps_id?: string;
  matricula_profesional: string;
  id_transaccion: string;
  url_verificacion: string;
}

export interface MinistryReceipt {
  /** The ministry's id of the pointer (its receipt). */
  ref: string;
  /** The ministry already held a pointer for this CUIR (a repeated delivery). */
  duplicate: boolean;
}

/** The ministry refused the pointer for good (4xx other than auth/rate): no retry will help. */
export class MinistryRejection extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(`ministry rejected the pointer: ${code} ${reason}`);
    this.name = 'MinistryRejection';
  }
}

/**
 * Port of the ministry's pointer service. `deliver` resolves with the receipt, throws
 * MinistryRejection for a final refusal, and DomainError UPSTREAM_UNAVAILABLE for anything
 * transient (timeouts, 5xx, auth trouble) — those are retried by the notification job.
 */
export abstract class MinistryClient {
  abstract deliver(pointer: MinistryPointer): Promise<MinistryReceipt>;
}
