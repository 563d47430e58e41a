import type { HistoryEntry } from './recetas.repository.js';

/** The prescription transaction's states (SPEC 4). COMPLETED and FAILED are final. */
export const ESTADOS = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type Estado = (typeof ESTADOS)[number];

export const isFinal = (estado: Estado) => estado !== 'PENDING';

export const MENSAJES: Record<Estado, string> = {
  PENDING: 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud',
  COMPLETED: 'Transacción completada: el Ministerio de Salud confirmó la recepción',
  FAILED: 'Transacción fallida: el Ministerio de Salud no confirmó la recepción',
};

/** The history entry every registration starts with. */
export const REGISTERED: Omit<HistoryEntry, 'at'> = {
  evento: 'REGISTRADA',
  estado: 'PENDING',
  intento: null,
  resultado: 'accepted',
  detalle: 'registration accepted; ministry notification queued',
};

/**
 * Retry delay before attempt `attempt + 1` (SPEC 4): the base delay doubled after each failed
 * attempt, with ±20 % jitter so many failed deliveries do not retry in lock-step.
 */
export function retryDelayMs(
  baseSeconds: number,
  failedAttempts: number,
  random = Math.random,
): number {
  const exponential = baseSeconds * 1000 * 2 ** Math.min(failedAttempts - 1, 16);
  return Math.round(exponential * (0.8 + 0.4 * random()));
}
