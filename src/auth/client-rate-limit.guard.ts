import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RequestWithContext } from '../common/http/request-context.js';
import { consumeOrRefuse, RateLimiters } from './rate-limiters.js';

const WINDOW_SECONDS = 60;

/**
 * Per-client rate limit (contract §2), after the AuthGuard: every request of a client counts
 * against its own per-minute budget across all endpoints; over it, 429 RATE_LIMITED with
 * Retry-After. Counters live in memory (one instance) or in PostgreSQL (RATE_LIMIT_STORE=
 * postgres, shared by all instances, with an in-memory fallback if the database errs).
 */
@Injectable()
export class ClientRateLimitGuard implements CanActivate {
  /** One limiter per distinct limit: the library fixes the budget per limiter. */
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(private readonly rateLimiters: RateLimiters) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const client = context.switchToHttp().getRequest<RequestWithContext>().apiClient;
    if (!client) return true; // public route
    const res = context.switchToHttp().getResponse<Response>();
    const limit = client.rateLimitPerMinute;
    await consumeOrRefuse(
      this.limiterFor(limit),
      limit,
      client.id,
      res,
      `Rate limit of ${limit} requests per minute exceeded`,
    );
    return true;
  }

  private limiterFor(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = this.rateLimiters.create({
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: `client${points}`,
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}
