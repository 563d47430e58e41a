import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError } from '../common/errors/domain-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';

/**
 * Slows down credential guessing: after AUTH_FAILURES_PER_MINUTE failed authentications from
 * one address, further attempts from it are refused with 429 before any secret is checked.
 * Counted per instance (a guess needs far more attempts than instances can multiply).
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly failures: RateLimiterMemory;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.failures = new RateLimiterMemory({
      points: config.auth.failuresPerMinute,
      duration: 60,
      keyPrefix: 'auth-fail',
    });
  }

  /** Throws 429 when this address has used up its failures. */
  async assertAllowed(address: string): Promise<void> {
    const state = await this.failures.get(address);
    if (state && state.consumedPoints >= this.config.auth.failuresPerMinute) throw limited(state);
  }

  async recordFailure(address: string): Promise<void> {
    await this.failures.penalty(address, 1);
  }
}

const limited = (state: RateLimiterRes) =>
  new DomainError(
    'RATE_LIMITED',
    'Too many failed authentication attempts; retry later',
    undefined,
    {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(state.msBeforeNext / 1000))) },
    },
  );
