import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RequestWithContext } from '../common/http/request-context.js';
import { consumeOrRefuse, RateLimiters } from './rate-limiters.js';

/**
 * Per-client rate limit (contract §2), after the AuthGuard: every request of a client counts
 * against its own per-minute budget across all endpoints; over it, 429 RATE_LIMITED.
 */
@Injectable()
export class ClientRateLimitGuard implements CanActivate {
  /** One limiter per distinct limit: the library fixes the budget per limiter. */
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(private readonly rateLimiters: RateLimiters) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const client = http.getRequest<RequestWithContext>().apiClient;
    if (!client) return true; // public route
    const limit = client.rateLimitPerMinute;
    let limiter = this.limiters.get(limit);
    if (!limiter) {
      limiter = this.rateLimiters.create({
        points: limit,
        duration: 60,
        keyPrefix: `client${limit}`,
      });
      this.limiters.set(limit, limiter);
    }
    const message = `Rate limit of ${limit} requests per minute exceeded`;
    await consumeOrRefuse(limiter, limit, client.id, http.getResponse<Response>(), message);
    return true;
  }
}
