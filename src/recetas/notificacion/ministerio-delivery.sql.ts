/**
 * The ministry delivery job's queue and payload, and the first delivery's payload as SQL (built
 * inside the registration's statement, where the new id exists as CTE `source`). Part of the
 * surface bench/ may read.
 */
export const MINISTERIO_QUEUE = 'ministerio-punteros';

export interface NotificationJob {
  id_transaccion: string;
  /** 1 for the first delivery; each retry is a new job with the next number. */
  attempt: number;
  /**
   * What to tell the ministry: the pointer (absent, as the registration's own statement
   * enqueues it) or the prescription's cancellation (contract §7), on the same queue.
   */
  kind?: 'puntero' | 'anulacion';
}

export const firstDeliveryJobData = (source: string): string =>
  `jsonb_build_object('id_transaccion', ${source}.id::text, 'attempt', 1)`;
