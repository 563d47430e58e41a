import { DomainError } from '../../common/errors/domain-error.js';
import { wasNotAttempted } from '../../common/resilience/resilience-policy.js';
import { type MinisterioReceipt, MinisterioRejection } from '../../ministerio/ministerio.public.js';
import type { HistoryEntry } from '../entities/receta-historial.entity.js';
import type { AnulacionEstado, Estado } from '../receta-state.js';

// What one attempt does to the pointer (contract §4: PENDING → COMPLETED / FAILED) or to a
// cancellation's notice (§7), and the history it leaves; the two jobs write it.

/** Retries stop this long after the registration or the cancellation (contract §4: or 10 attempts). */
export const MAX_AGE_MS = 24 * 3600_000;

type Metric = 'completed' | 'duplicate' | 'rejected' | 'retry' | 'failed' | 'not_required';

/** One attempt's result: the pointer's (or the notice's) state after it and its history. */
export interface Step<E extends AnulacionEstado = Estado> {
  estado: E;
  /** The attempt that produced it (the count before, when no call was made). */
  intento: number;
  metric: Metric;
  history: HistoryEntry[];
  ministerioRef?: string;
  failureReason?: string;
  /** The next attempt's job, after a transient failure. */
  followUp?: { attempt: number; startAfter: Date };
}

/** When a transient failure is retried: the attempts allowed, the backoff, and the age. */
export interface RetryPolicy {
  maxAttempts: number;
  retryDelaySeconds: number;
  retryMaxDelaySeconds: number;
  /** Too old to retry any more (the job's maximum age has passed). */
  expired: boolean;
}

/**
 * Retry delay before attempt `attempt + 1`: the base delay doubled after each failed attempt up
 * to `maxSeconds`, with ±20 % jitter so failed deliveries do not retry in lock-step.
 */
export function retryDelayMs(
  baseSeconds: number,
  failedAttempts: number,
  maxSeconds = Infinity,
  random = Math.random,
): number {
  const exponential = Math.min(
    baseSeconds * 2 ** Math.min(failedAttempts - 1, 16),
    Math.max(baseSeconds, maxSeconds),
  );
  return Math.round(exponential * 1000 * (0.8 + 0.4 * random()));
}

export function notRequired(intentos: number, type: string): Step {
  const detalle = `prescription type ${type} is not reported`;
  return {
    estado: 'COMPLETED',
    intento: intentos,
    metric: 'not_required',
    history: [
      {
        evento: 'NOTIFICACION_NO_REQUERIDA',
        estado: 'COMPLETED',
        intento: null,
        resultado: 'not_required',
        detalle,
      },
    ],
  };
}

/** Why a cancellation needs no notice: the pointer was never accepted; null when it does. */
export function nothingToTell(r: { estado: string; ministerio_ref: string | null }): string | null {
  if (r.estado === 'FAILED') return 'the ministry never accepted the pointer (FAILED)';
  if (r.estado === 'COMPLETED' && r.ministerio_ref === null)
    return 'the prescription type is not reported to the ministry';
  return null;
}

/** A notice's history carries the transaction's `estado`, which its writer fills in. */
export function anulacionNoRequerida(intentos: number, why: string): Step<AnulacionEstado> {
  const detalle = `nothing to tell: ${why}`;
  return {
    estado: 'NOT_REQUIRED',
    intento: intentos,
    metric: 'not_required',
    history: [
      {
        evento: 'ANULACION_NO_INFORMADA',
        estado: 'PENDING',
        intento: null,
        resultado: 'not_required',
        detalle,
      },
    ],
  };
}

/** One machine's history: its events and texts. */
interface Machine {
  intento: string;
  informada: string;
  fallida: string;
  recibido(ref: string, duplicate: boolean): string;
  informado(ref: string): string;
  rechazado: string;
  agotado: string;
}

export const PUNTERO: Machine = {
  intento: 'INTENTO',
  informada: 'ESTADO',
  fallida: 'ESTADO',
  recibido: (ref, dup) => (dup ? `already held by the ministry as ${ref}` : `received as ${ref}`),
  informado: (ref) => `ministerio_ref ${ref}`,
  rechazado: 'rejected by the ministry',
  agotado: 'retries exhausted',
};

export const ANULACION: Machine = {
  intento: 'ANULACION_INTENTO',
  informada: 'ANULACION_INFORMADA',
  fallida: 'ANULACION_FALLIDA',
  recibido: (ref, dup) =>
    dup
      ? `the ministry held the cancellation of ${ref} already`
      : `cancellation of ${ref} received`,
  informado: (ref) => `the ministry marked pointer ${ref} cancelled`,
  rechazado: 'cancellation rejected by the ministry',
  agotado: 'cancellation notice: retries exhausted',
};

/**
 * Calls the ministry and answers the attempt's step: COMPLETED on a receipt, FAILED on a
 * rejection, and for a transient failure the next attempt later with backoff, or FAILED once
 * the attempts or the age are spent. Null when the circuit breaker stopped the call before it
 * left (nothing learnt: the same attempt waits for the breaker, unless too old). Anything else
 * is ours: rethrown, so the queue retries the job.
 */
export async function stepOf(
  m: Machine,
  attempt: number,
  policy: RetryPolicy,
  call: () => Promise<MinisterioReceipt>,
): Promise<Step | null> {
  const entry = (evento: string, estado: Estado, resultado: string, detalle: string) => ({
    evento,
    estado,
    intento: attempt,
    resultado,
    detalle,
  });
  const failed = (metric: Metric, resultado: string, detalle: string, why: string): Step => ({
    estado: 'FAILED',
    intento: attempt,
    metric,
    failureReason: why,
    history: [
      entry(m.intento, 'PENDING', resultado, detalle),
      entry(m.fallida, 'FAILED', 'failed', why),
    ],
  });
  let reason: string;
  try {
    const { ref, duplicate } = await call();
    return {
      estado: 'COMPLETED',
      intento: attempt,
      metric: duplicate ? 'duplicate' : 'completed',
      ministerioRef: ref,
      history: [
        entry(m.intento, 'PENDING', 'ok', m.recibido(ref, duplicate)),
        entry(m.informada, 'COMPLETED', 'completed', m.informado(ref)),
      ],
    };
  } catch (err) {
    if (err instanceof MinisterioRejection) {
      const why = `${m.rechazado}: ${err.code} ${err.reason}`.slice(0, 500);
      return failed('rejected', 'rejected', why, why);
    }
    if (wasNotAttempted(err) && !policy.expired) return null;
    if (!(err instanceof DomainError) || err.code !== 'UPSTREAM_UNAVAILABLE') throw err;
    // A short reason: the upstream code or message, never its body.
    const cause = err.cause as { upstreamCode?: string; message?: string } | undefined;
    reason = cause?.upstreamCode ?? cause?.message ?? err.message;
  }
  if (attempt >= policy.maxAttempts || policy.expired) {
    const why = `${m.agotado} after ${attempt} attempts; last error: ${reason}`;
    return failed('failed', 'error', reason, why);
  }
  const delay = retryDelayMs(policy.retryDelaySeconds, attempt, policy.retryMaxDelaySeconds);
  const next = new Date(Date.now() + delay);
  return {
    estado: 'PENDING',
    intento: attempt,
    metric: 'retry',
    history: [
      entry(m.intento, 'PENDING', 'error', `${reason}; next attempt at ${next.toISOString()}`),
    ],
    followUp: { attempt: attempt + 1, startAfter: next },
  };
}
