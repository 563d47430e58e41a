import type { HistoryEntry } from '../entities/receta-historial.entity.js';
import type { AnulacionEstado } from '../receta-state.js';
import { nextAttemptAt, type RetryPolicy } from './delivery-outcomes.js';

/**
 * The ministry's notice of a cancellation (contract §7) as pure functions, like delivery-outcomes.ts
 * for the pointer: what one attempt's result does to the notice and the history it leaves.
 * History entries carry no `estado`: that is the transaction's, filled in when written.
 */
export type AnulacionHistory = Omit<HistoryEntry, 'estado'>;

export interface AnulacionStep {
  estado: AnulacionEstado;
  /** The attempt that produced this outcome (the count before, when no call was made). */
  intento: number;
  metric: 'completed' | 'duplicate' | 'rejected' | 'retry' | 'failed' | 'not_required';
  history: AnulacionHistory[];
  followUp?: { attempt: number; startAfter: Date };
}

/** Why a cancellation needs no notice: the pointer was never accepted; null when it does. */
export function nothingToTell(r: { estado: string; ministerio_ref: string | null }): string | null {
  if (r.estado === 'FAILED') return 'the ministry never accepted the pointer (FAILED)';
  if (r.estado === 'COMPLETED' && r.ministerio_ref === null)
    return 'the prescription type is not reported to the ministry';
  return null;
}

export function anulacionNoRequerida(intentos: number, why: string): AnulacionStep {
  return {
    estado: 'NOT_REQUIRED',
    intento: intentos,
    metric: 'not_required',
    history: [
      {
        evento: 'ANULACION_NO_INFORMADA',
        intento: null,
        resultado: 'not_required',
        detalle: `nothing to tell: ${why}`,
      },
    ],
  };
}

export function anulacionInformada(
  attempt: number,
  ref: string,
  duplicate: boolean,
): AnulacionStep {
  return {
    estado: 'COMPLETED',
    intento: attempt,
    metric: duplicate ? 'duplicate' : 'completed',
    history: [
      {
        evento: 'ANULACION_INTENTO',
        intento: attempt,
        resultado: 'ok',
        detalle: duplicate
          ? `the ministry held the cancellation of ${ref} already`
          : `cancellation of ${ref} received`,
      },
      {
        evento: 'ANULACION_INFORMADA',
        intento: attempt,
        resultado: 'completed',
        detalle: `the ministry marked pointer ${ref} cancelled`,
      },
    ],
  };
}

export function anulacionRechazada(attempt: number, code: string, reason: string): AnulacionStep {
  const why = `cancellation rejected by the ministry: ${code} ${reason}`.slice(0, 500);
  return {
    estado: 'FAILED',
    intento: attempt,
    metric: 'rejected',
    history: [
      { evento: 'ANULACION_INTENTO', intento: attempt, resultado: 'rejected', detalle: why },
      { evento: 'ANULACION_FALLIDA', intento: attempt, resultado: 'failed', detalle: why },
    ],
  };
}

/** A transient failure: the next attempt later with backoff, or FAILED once spent or too old. */
export function anulacionFallida(
  attempt: number,
  reason: string,
  policy: RetryPolicy,
  now = Date.now(),
): AnulacionStep {
  const next = nextAttemptAt(attempt, policy, now);
  if (next === null) {
    const why = `cancellation notice: retries exhausted after ${attempt} attempts; last error: ${reason}`;
    return {
      estado: 'FAILED',
      intento: attempt,
      metric: 'failed',
      history: [
        { evento: 'ANULACION_INTENTO', intento: attempt, resultado: 'error', detalle: reason },
        { evento: 'ANULACION_FALLIDA', intento: attempt, resultado: 'failed', detalle: why },
      ],
    };
  }
  return {
    estado: 'PENDING',
    intento: attempt,
    metric: 'retry',
    history: [
      {
        evento: 'ANULACION_INTENTO',
        intento: attempt,
        resultado: 'error',
        detalle: `${reason}; next attempt at ${next.toISOString()}`,
      },
    ],
    followUp: { attempt: attempt + 1, startAfter: next },
  };
}
