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
import { authSettings } from './auth.settings.js';
import type { AuthSettings } from './auth.settings.js';

export interface RateLimiterOptions {
  /** The budget per key and window. */
  points: number;
  /** The window, in seconds (fixed: it starts with a key's first point). */
  duration: number;
  /** Keeps this limiter's keys apart from every other's in the shared store. */
  keyPrefix: string;
}

/** How long a worker waits for the primary's count before the request fails. */
const CLUSTER_TIMEOUT_MS = 2000;

/**
 * Counters that follow RATE_LIMIT_STORE: in memory (one instance: the process's, or a cluster
 * primary's for all its workers) or in PostgreSQL's `rate_limits` table (shared by all
 * instances, with an in-memory fallback if the database errs). Every limit of the service is
 * made here, so none counts per process or per instance by accident when several run.
 */
@Injectable()
export class RateLimiters {
  constructor(
    @InjectSettings(authSettings) private readonly settings: AuthSettings,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  create(opts: RateLimiterOptions): RateLimiterAbstract {
    // In a cluster's worker the counters live in the primary (RateLimiterClusterMaster,
    // cluster.ts), so a limit means the same with one worker or eight.
    if (this.settings.rateLimitStore !== 'postgres')
      return cluster.isWorker
        ? new RateLimiterCluster({ ...opts, timeoutMs: CLUSTER_TIMEOUT_MS })
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
 * the RateLimit-* headers, and past the budget this throws 429 RATE_LIMITED (`message`, with
 * Retry-After). The one consume-or-refuse of every per-request limit of the service.
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
