/** The webhooks a prescription's owner receives (contract §3, §7); imports nothing, for the CLI's help. */
export const RECETA_WEBHOOK_TYPES = [
  'receta.completed',
  'receta.failed',
  'receta.anulada',
  'receta.dispensada',
  'receta.dispensa_revertida',
] as const;

/** One of them; the payload calls it an `event` (the wire's word). */
export type RecetaWebhookType = (typeof RECETA_WEBHOOK_TYPES)[number];
