import { DomainError } from '../../common/errors/domain-error.js';
import { wasNotAttempted } from '../../common/resilience/resilience-policy.js';
import { type MinisterioReceipt, MinisterioRejection } from '../../ministerio/ministerio.public.js';
import type { HistoryEntry } from '../entities/receta-historial.entity.js';
import { type AnulacionEstado, type Estado, MENSAJES } from '../receta-state.js';
import type { AttemptOutcome } from '../recetas.repository.js';

/**
 * The ministry's two machines as pure functions: what one attempt's result does to the pointer
 * (contract §4: PENDING → COMPLETED / FAILED) or to a cancellation's notice (§7), and the
 * history it leaves. The jobs (ministerio-delivery.job.ts, anulacion-delivery.ts) apply them.
 */
/** Retries stop this long after the registration or the cancellation (contract §4: or 10 attempts). */
export const MAX_AGE_MS = 24 * 3600_000;

type Metric = 'completed' | 'duplicate' | 'rejected' | 'retry' | 'failed' | 'not_required';
type FollowUp = { attempt: number; startAfter: Date };

export interface Step {
  outcome: AttemptOutcome;
  metric: Metric;
  history: HistoryEntry[];
  followUp?: FollowUp;
}

/** A notice's step; its history carries no `estado` (the transaction's, filled in when written). */
export interface AnulacionStep {
  estado: AnulacionEstado;
  /** The attempt that produced this outcome (the count before, when no call was made). */
  intento: number;
  metric: Metric;
  history: Array<Omit<HistoryEntry, 'estado'>>;
  followUp?: FollowUp;
}

/** When a transient failure is retried: the attempts allowed, the backoff, and the age. */
export interface RetryPolicy {
  maxAttempts: number;
  retryDelaySeconds: number;
  retryMaxDelaySeconds: number;
  /** Too old to retry any more (the job's maximum age has passed). */
  expired: boolean;
}

const entry = (
  evento: string,
  estado: Estado,
  intento: number | null,
  resultado: string,
  detalle: string,
): HistoryEntry => ({ evento, estado, intento, resultado, detalle });

const nota = (evento: string, intento: number | null, resultado: string, detalle: string) => ({
  evento,
  intento,
  resultado,
  detalle,
});

/** When attempt `attempt + 1` is due, or null when the policy is spent (then FAILED). */
function nextAttemptAt(attempt: number, policy: RetryPolicy, now: number): Date | null {
  if (attempt >= policy.maxAttempts || policy.expired) return null;
  return new Date(
    now + retryDelayMs(policy.retryDelaySeconds, attempt, policy.retryMaxDelaySeconds),
  );
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
  return {
    outcome: { estado: 'COMPLETED', mensaje: MENSAJES.COMPLETED, intento: intentos },
    metric: 'not_required',
    history: [
      entry(
        'NOTIFICACION_NO_REQUERIDA',
        'COMPLETED',
        null,
        'not_required',
        `prescription type ${type} is not reported`,
      ),
    ],
  };
}

function delivered(attempt: number, ref: string, duplicate: boolean): Step {
  const detalle = duplicate ? `already held by the ministry as ${ref}` : `received as ${ref}`;
  return {
    outcome: {
      estado: 'COMPLETED',
      mensaje: MENSAJES.COMPLETED,
      intento: attempt,
      ministerioRef: ref,
    },
    metric: duplicate ? 'duplicate' : 'completed',
    history: [
      entry('INTENTO', 'PENDING', attempt, 'ok', detalle),
      entry('ESTADO', 'COMPLETED', attempt, 'completed', `ministerio_ref ${ref}`),
    ],
  };
}

function rejected(attempt: number, code: string, reason: string): Step {
  const why = `rejected by the ministry: ${code} ${reason}`.slice(0, 500);
  return {
    outcome: { estado: 'FAILED', mensaje: MENSAJES.FAILED, intento: attempt, failureReason: why },
    metric: 'rejected',
    history: [
      entry('INTENTO', 'PENDING', attempt, 'rejected', why),
      entry('ESTADO', 'FAILED', attempt, 'failed', why),
    ],
  };
}

/** A transient failure: the next attempt later, or FAILED once the budget or the age is spent. */
function failedAttempt(attempt: number, reason: string, policy: RetryPolicy): Step {
  const next = nextAttemptAt(attempt, policy, Date.now());
  if (next === null) {
    const why = `retries exhausted after ${attempt} attempts; last error: ${reason}`;
    return {
      outcome: { estado: 'FAILED', mensaje: MENSAJES.FAILED, intento: attempt, failureReason: why },
      metric: 'failed',
      history: [
        entry('INTENTO', 'PENDING', attempt, 'error', reason),
        entry('ESTADO', 'FAILED', attempt, 'failed', why),
      ],
    };
  }
  return {
    outcome: {
      estado: 'PENDING',
      mensaje: MENSAJES.PENDING,
      intento: attempt,
      proximoIntentoAt: next,
    },
    metric: 'retry',
    history: [
      entry(
        'INTENTO',
        'PENDING',
        attempt,
        'error',
        `${reason}; next attempt at ${next.toISOString()}`,
      ),
    ],
    followUp: { attempt: attempt + 1, startAfter: next },
  };
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
    history: [nota('ANULACION_NO_INFORMADA', null, 'not_required', `nothing to tell: ${why}`)],
  };
}

function anulacionInformada(attempt: number, ref: string, duplicate: boolean): AnulacionStep {
  const detalle = duplicate
    ? `the ministry held the cancellation of ${ref} already`
    : `cancellation of ${ref} received`;
  return {
    estado: 'COMPLETED',
    intento: attempt,
    metric: duplicate ? 'duplicate' : 'completed',
    history: [
      nota('ANULACION_INTENTO', attempt, 'ok', detalle),
      nota(
        'ANULACION_INFORMADA',
        attempt,
        'completed',
        `the ministry marked pointer ${ref} cancelled`,
      ),
    ],
  };
}

function anulacionRechazada(attempt: number, code: string, reason: string): AnulacionStep {
  const why = `cancellation rejected by the ministry: ${code} ${reason}`.slice(0, 500);
  return {
    estado: 'FAILED',
    intento: attempt,
    metric: 'rejected',
    history: [
      nota('ANULACION_INTENTO', attempt, 'rejected', why),
      nota('ANULACION_FALLIDA', attempt, 'failed', why),
    ],
  };
}

function anulacionFallida(attempt: number, reason: string, policy: RetryPolicy): AnulacionStep {
  const next = nextAttemptAt(attempt, policy, Date.now());
  if (next === null) {
    const why = `cancellation notice: retries exhausted after ${attempt} attempts; last error: ${reason}`;
    return {
      estado: 'FAILED',
      intento: attempt,
      metric: 'failed',
      history: [
        nota('ANULACION_INTENTO', attempt, 'error', reason),
        nota('ANULACION_FALLIDA', attempt, 'failed', why),
      ],
    };
  }
  return {
    estado: 'PENDING',
    intento: attempt,
    metric: 'retry',
    history: [
      nota(
        'ANULACION_INTENTO',
        attempt,
        'error',
        `${reason}; next attempt at ${next.toISOString()}`,
      ),
    ],
    followUp: { attempt: attempt + 1, startAfter: next },
  };
}

/** One machine: the step of a receipt, of a rejection, and of a transient failure. */
interface Machine<S> {
  done(attempt: number, ref: string, duplicate: boolean): S;
  rejected(attempt: number, code: string, reason: string): S;
  failed(attempt: number, reason: string, policy: RetryPolicy): S;
}

export const PUNTERO: Machine<Step> = { done: delivered, rejected, failed: failedAttempt };
export const ANULACION: Machine<AnulacionStep> = {
  done: anulacionInformada,
  rejected: anulacionRechazada,
  failed: anulacionFallida,
};

/**
 * Calls the ministry and answers the machine's step, or null when the circuit breaker stopped
 * the call before it left (nothing learnt: the same attempt waits for the breaker, unless the
 * job is too old). Anything but a rejection or a transient failure is ours: rethrown, so the
 * queue retries the job.
 */
export async function stepOf<S>(
  machine: Machine<S>,
  attempt: number,
  policy: RetryPolicy,
  call: () => Promise<MinisterioReceipt>,
): Promise<S | null> {
  try {
    const receipt = await call();
    return machine.done(attempt, receipt.ref, receipt.duplicate);
  } catch (err) {
    if (err instanceof MinisterioRejection) return machine.rejected(attempt, err.code, err.reason);
    if (wasNotAttempted(err) && !policy.expired) return null;
    if (!(err instanceof DomainError) || err.code !== 'UPSTREAM_UNAVAILABLE') throw err;
    // A short reason: the upstream code or message, never its body.
    const cause = err.cause as { upstreamCode?: string; message?: string } | undefined;
    return machine.failed(attempt, cause?.upstreamCode ?? cause?.message ?? err.message, policy);
  }
}
