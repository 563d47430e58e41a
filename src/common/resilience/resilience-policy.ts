import { beforeSlowWork } from '../http/slow-work.js';
import {
  BrokenCircuitError,
  bulkhead,
  BulkheadRejectedError,
  circuitBreaker,
  CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  IPolicy,
  retry,
  TaskCancelledError,
  timeout,
  TimeoutStrategy,
  wrap,
} from 'cockatiel';
import type { Logger } from 'pino';
import type { CoreConfig } from '../../config/core-config.js';
import { currentSignal } from '../http/request-scope.js';
import { DomainError } from '../errors/domain-error.js';
import { UpstreamFailure } from './upstream-failure.js';

export type ResilienceOptions = CoreConfig['resilience'];

export type BreakerState = 'closed' | 'open' | 'half-open' | 'isolated';

const STATE_NAMES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'isolated',
};

const isTransient = (err: Error) =>
  err instanceof TaskCancelledError || (err instanceof UpstreamFailure && err.retriable);
const isFailure = (err: Error) =>
  err instanceof TaskCancelledError || err instanceof UpstreamFailure;

/**
 * The one policy of every outbound call: bulkhead, circuit breaker, jittered retries, a timeout
 * per attempt. Failures come out as UPSTREAM_UNAVAILABLE; domain results pass through uncounted.
 */
export class ResiliencePolicy {
  private readonly breaker: CircuitBreakerPolicy;
  private readonly policy: IPolicy;

  constructor(
    readonly system: string,
    private readonly options: ResilienceOptions,
    private readonly log: Logger,
  ) {
    this.breaker = circuitBreaker(handleWhen(isFailure), {
      halfOpenAfter: options.halfOpenAfterMs,
      breaker: new ConsecutiveBreaker(options.breakerThreshold),
    });
    this.breaker.onStateChange((state) =>
      this.log.warn({ system, breaker: STATE_NAMES[state] }, 'circuit breaker state changed'),
    );
    this.policy = wrap(
      bulkhead(options.bulkheadLimit, options.bulkheadQueue),
      this.breaker,
      retry(handleWhen(isTransient), {
        maxAttempts: Math.max(0, options.maxAttempts - 1),
        backoff: new ExponentialBackoff({ initialDelay: 50, maxDelay: 1000 }),
      }),
      timeout(options.timeoutMs, TimeoutStrategy.Aggressive),
    );
  }

  get state(): BreakerState {
    return STATE_NAMES[this.breaker.state];
  }

  /**
   * Runs `call` under the policy; `signal` aborts the attempt when its timeout fires, or when the
   * request it serves stops (request-scope.ts).
   */
  async execute<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    await beforeSlowWork();
    try {
      return await this.policy.execute(({ signal }) => call(signal), currentSignal());
    } catch (err) {
      throw this.toDomainError(err);
    }
  }

  private toDomainError(err: unknown): unknown {
    if (err instanceof DomainError) return err;
    let reason: string;
    if (err instanceof BrokenCircuitError) reason = 'circuit open';
    else if (err instanceof BulkheadRejectedError) reason = 'bulkhead full';
    else if (err instanceof TaskCancelledError)
      reason = `timeout after ${this.options.timeoutMs} ms`;
    else if (err instanceof UpstreamFailure) reason = err.upstreamCode;
    else return err; // a bug of ours, not the upstream's: let the filter answer 500 INTERNAL
    this.log.warn({ system: this.system, upstream_code: reason }, 'upstream call failed');
    return new DomainError(
      'UPSTREAM_UNAVAILABLE',
      `The ${this.system} service is unavailable, try again later`,
      undefined,
      { cause: err },
    );
  }
}

/** A failed call that never reached the upstream (circuit open, bulkhead full): no retry spent. */
export function wasNotAttempted(err: unknown): boolean {
  if (!(err instanceof DomainError) || err.code !== 'UPSTREAM_UNAVAILABLE') return false;
  return err.cause instanceof BrokenCircuitError || err.cause instanceof BulkheadRejectedError;
}
