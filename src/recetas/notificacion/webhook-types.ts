/**
 * The webhooks a prescription's owner receives (contract §3, §7), in the order they can happen.
 * A file of its own, importing nothing, so the credentials tool's help can name them.
 */
export const RECETA_WEBHOOK_TYPES = [
  'receta.completed',
  'receta.failed',
  'receta.anulada',
  'receta.dispensada',
  'receta.dispensa_revertida',
] as const;

/** One of them; the payload calls it an `event` (the wire's word). */
export type RecetaWebhookType = (typeof RECETA_WEBHOOK_TYPES)[number];
