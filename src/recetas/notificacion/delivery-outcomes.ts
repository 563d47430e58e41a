import type { DomainError } from '../../common/errors/domain-error.js';
import type { HistoryEntry } from '../entities/receta-historial.entity.js';
import { MENSAJES } from '../receta-state.js';
import type { AttemptOutcome } from '../recetas.repository.js';

/**
 * The PENDING → COMPLETED / FAILED machine of contract §4 as pure functions: what one delivery
 * attempt's result does to the transaction, and the history it leaves. The job (ministerio-
 * delivery.job.ts) applies them.
 */
export interface Step {
  outcome: AttemptOutcome;
  /** The metric label of this step. */
  metric: 'completed' | 'duplicate' | 'rejected' | 'retry' | 'failed' | 'not_required';
  history: HistoryEntry[];
  /** The next attempt's job, for a transient failure. */
  followUp?: { attempt: number; startAfter: Date };
}

/** When a transient failure is retried: the attempts allowed, the backoff, and the notice's age. */
export interface RetryPolicy {
  maxAttempts: number;
  retryDelaySeconds: number;
  retryMaxDelaySeconds: number;
  /** Too old to retry any more (the job's maximum age has passed). */
  expired: boolean;
}

/**
 * When attempt `attempt + 1` is due after a transient failure of `attempt`, or null when the
 * policy is spent (attempts used up, or too old): then the notice is FAILED.
 */
export function nextAttemptAt(attempt: number, policy: RetryPolicy, now: number): Date | null {
  if (attempt >= policy.maxAttempts || policy.expired) return null;
  return new Date(
    now + retryDelayMs(policy.retryDelaySeconds, attempt, policy.retryMaxDelaySeconds),
  );
}

/**
 * Retry delay before attempt `attempt + 1`: the base delay doubled after each failed
 * attempt up to `maxSeconds`, with ±20 % jitter so many failed deliveries do not retry in
 * lock-step.
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
      {
        evento: 'NOTIFICACION_NO_REQUERIDA',
        estado: 'COMPLETED',
        intento: null,
        resultado: 'not_required',
        detalle: `prescription type ${type} is not reported`,
      },
    ],
  };
}

export function delivered(attempt: number, ref: string, duplicate: boolean): Step {
  return {
    outcome: {
      estado: 'COMPLETED',
      mensaje: MENSAJES.COMPLETED,
      intento: attempt,
      ministerioRef: ref,
    },
    metric: duplicate ? 'duplicate' : 'completed',
    history: [
      {
        evento: 'INTENTO',
        estado: 'PENDING',
        intento: attempt,
        resultado: 'ok',
        detalle: duplicate ? `already held by the ministry as ${ref}` : `received as ${ref}`,
      },
      {
        evento: 'ESTADO',
        estado: 'COMPLETED',
        intento: attempt,
        resultado: 'completed',
        detalle: `ministerio_ref ${ref}`,
      },
    ],
  };
}

export function rejected(attempt: number, code: string, reason: string): Step {
  const why = `rejected by the ministry: ${code} ${reason}`.slice(0, 500);
  return {
    outcome: { estado: 'FAILED', mensaje: MENSAJES.FAILED, intento: attempt, failureReason: why },
    metric: 'rejected',
    history: [
      {
        evento: 'INTENTO',
        estado: 'PENDING',
        intento: attempt,
        resultado: 'rejected',
        detalle: why,
      },
      { evento: 'ESTADO', estado: 'FAILED', intento: attempt, resultado: 'failed', detalle: why },
    ],
  };
}

/** A transient failure: the next attempt later, or FAILED once the budget or the age is spent. */
export function failedAttempt(
  attempt: number,
  reason: string,
  policy: RetryPolicy,
  now = Date.now(),
): Step {
  const next = nextAttemptAt(attempt, policy, now);
  if (next === null) {
    const why = `retries exhausted after ${attempt} attempts; last error: ${reason}`;
    return {
      outcome: { estado: 'FAILED', mensaje: MENSAJES.FAILED, intento: attempt, failureReason: why },
      metric: 'failed',
      history: [
        {
          evento: 'INTENTO',
          estado: 'PENDING',
          intento: attempt,
          resultado: 'error',
          detalle: reason,
        },
        { evento: 'ESTADO', estado: 'FAILED', intento: attempt, resultado: 'failed', detalle: why },
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
      {
        evento: 'INTENTO',
        estado: 'PENDING',
        intento: attempt,
        resultado: 'error',
        detalle: `${reason}; next attempt at ${next.toISOString()}`,
      },
    ],
    followUp: { attempt: attempt + 1, startAfter: next },
  };
}

/** A short reason for a transient failure: the upstream code or message, never its body. */
export function describeFailure(err: DomainError): string {
  const cause = err.cause as { upstreamCode?: string; message?: string } | undefined;
  return cause?.upstreamCode ?? cause?.message ?? err.message;
}
