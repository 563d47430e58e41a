// The ministry job's queue and payload, and the first one's as SQL (in the registration's statement).
export const MINISTERIO_QUEUE = 'ministerio-punteros';

export interface NotificationJob {
  id_transaccion: string;
  /** 1 for the first delivery; each retry is a new job with the next number. */
  attempt: number;
  /** The pointer (absent) or the prescription's cancellation (contract §7), on the same queue. */
  kind?: 'puntero' | 'anulacion';
}

export const firstDeliveryJobData = (source: string): string =>
  `jsonb_build_object('id_transaccion', ${source}.id::text, 'attempt', 1)`;
