/** The ministry notification's job: its queue and payload (no dependencies, so the bench baseline can load it). */
export const MINISTRY_QUEUE = 'ministerio-punteros';

export interface NotificationJob {
  id_transaccion: string;
  /** 1 for the first delivery; each retry is a new job with the next number. */
  attempt: number;
}

/** The first delivery's NotificationJob as SQL, built inside the registration's statement where the new id exists (CTE `source`). */
export const firstDeliveryJobData = (source: string): string =>
  `jsonb_build_object('id_transaccion', ${source}.id::text, 'attempt', 1)`;
