/**
 * The queue of webhook deliveries (created by the migrations: recetas.slice.ts), in a file of its
 * own so the slice names it without loading the job.
 */
export const WEBHOOKS_QUEUE = 'webhooks';
