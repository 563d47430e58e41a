/** The prescription transaction's states (contract §4). COMPLETED and FAILED are final. */
export const ESTADOS = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type Estado = (typeof ESTADOS)[number];

export const MENSAJES: Record<Estado, string> = {
  PENDING: 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud',
  COMPLETED: 'Transacción completada: el Ministerio de Salud confirmó la recepción',
  FAILED: 'Transacción fallida: el Ministerio de Salud no confirmó la recepción',
};

/** The ministry's notice of a cancellation; NOT_REQUIRED when the pointer was never accepted. */
export type AnulacionEstado = Estado | 'NOT_REQUIRED';
