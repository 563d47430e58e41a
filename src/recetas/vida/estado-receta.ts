/** The prescription's own state (contract §7), apart from its ministry transaction's `estado`. */
export const ESTADOS_RECETA = [
  'VIGENTE',
  'DISPENSADA_PARCIAL',
  'DISPENSADA',
  'VENCIDA',
  'ANULADA',
] as const;
export type EstadoReceta = (typeof ESTADOS_RECETA)[number];

export interface EstadoRecetaInput {
  anulada: boolean;
  /** Items the prescription has. */
  items: number;
  /** Items closed by a dispensation that was not reversed (fewer units than prescribed close one too). */
  cerrados: number;
  /** Last valid day, `YYYY-MM-DD`. */
  vigenciaHasta: string;
  /** Today in Argentina time, `YYYY-MM-DD`. */
  hoy: string;
}

/**
 * The first that applies: ANULADA; DISPENSADA (every item closed); VENCIDA (today after the
 * window); DISPENSADA_PARCIAL (some closed); VIGENTE. A prescription whose window has not begun
 * yet is VIGENTE: valid, though not dispensable before its start date.
 */
export function estadoReceta(r: EstadoRecetaInput): EstadoReceta {
  if (r.anulada) return 'ANULADA';
  if (r.items > 0 && r.cerrados >= r.items) return 'DISPENSADA';
  if (r.hoy > r.vigenciaHasta) return 'VENCIDA';
  if (r.cerrados > 0) return 'DISPENSADA_PARCIAL';
  return 'VIGENTE';
}
