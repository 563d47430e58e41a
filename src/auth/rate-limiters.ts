import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import cluster from 'node:cluster';
import {
  RateLimiterAbstract,
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { InjectSettings } from '../config/inject-settings.js';
import { authSettings, type AuthSettings } from './auth.settings.js';

/**
 * Counters that follow RATE_LIMIT_STORE: in memory (one instance: the process's, or a cluster
 * primary's for all its workers) or in PostgreSQL's `rate_limits` table (shared by all
 * instances, with an in-memory fallback if the database errs). Every limit of the service is
 * made here, so none counts per process by accident when several run.
 */
@Injectable()
export class RateLimiters {
  constructor(
    @InjectSettings(authSettings) private readonly settings: AuthSettings,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  /** `points` per key and window of `duration` seconds; `keyPrefix` keeps its keys apart. */
  create(opts: { points: number; duration: number; keyPrefix: string }): RateLimiterAbstract {
    // In a cluster's worker the counters live in the primary (RateLimiterClusterMaster,
    // cluster.ts), so a limit means the same with one worker or eight.
    if (this.settings.rateLimitStore !== 'postgres')
      return cluster.isWorker
        ? new RateLimiterCluster({ ...opts, timeoutMs: 2000 })
        : new RateLimiterMemory(opts);
    return new RateLimiterPostgres({
      ...opts,
      storeClient: this.db,
      storeType: 'typeorm',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: true,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
  }
}

/** Whole seconds until the window of `state` ends (at least 1): the 429's Retry-After. */
export const retryAfterSeconds = (state: RateLimiterRes): number =>
  Math.max(1, Math.ceil(state.msBeforeNext / 1000));

/** The one 429 every limit of the service answers: RATE_LIMITED with Retry-After. */
export const rateLimited = (message: string, state: RateLimiterRes): DomainError =>
  new DomainError('RATE_LIMITED', message, undefined, {
    headers: { 'Retry-After': String(retryAfterSeconds(state)) },
  });

/**
 * Counts one request of `key` against `limiter`, a per-minute budget of `limit`: the answer gets
 * the RateLimit-* headers, and past the budget this throws 429 RATE_LIMITED (`message`).
 */
export async function consumeOrRefuse(
  limiter: RateLimiterAbstract,
  limit: number,
  key: string,
  res: Response,
  message: string,
): Promise<RateLimiterRes> {
  try {
    const state = await limiter.consume(key);
    setRateLimitHeaders(res, limit, state);
    return state;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    setRateLimitHeaders(res, limit, rejection);
    throw rateLimited(message, rejection);
  }
}

/** The RateLimit-* headers of a per-minute budget of `limit`, as the OpenAPI document states them. */
export function setRateLimitHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
  res.setHeader('RateLimit-Reset', String(Math.ceil(state.msBeforeNext / 1000)));
}
