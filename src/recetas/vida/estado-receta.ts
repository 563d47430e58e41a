/** The prescription's own state (contract §7), apart from its ministry transaction's `estado`. */
export const ESTADOS_RECETA = [
  'VIGENTE',
  'DISPENSADA_PARCIAL',
  'DISPENSADA',
  'VENCIDA',
  'ANULADA',
] as const;
export type EstadoReceta = (typeof ESTADOS_RECETA)[number];

/**
 * The first that applies: ANULADA; DISPENSADA (every item closed by a dispensation not
 * reversed); VENCIDA (today, Argentina time, after the window's last day); DISPENSADA_PARCIAL
 * (some closed); VIGENTE (also before a later start date).
 */
export function estadoReceta(r: {
  anulada: boolean;
  items: number;
  cerrados: number;
  vigenciaHasta: string;
  hoy: string;
}): EstadoReceta {
  if (r.anulada) return 'ANULADA';
  if (r.items > 0 && r.cerrados >= r.items) return 'DISPENSADA';
  if (r.hoy > r.vigenciaHasta) return 'VENCIDA';
  if (r.cerrados > 0) return 'DISPENSADA_PARCIAL';
  return 'VIGENTE';
}
