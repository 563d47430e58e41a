import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { InjectSettings } from '../config/settings.js';
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

/**
 * Counters that follow RATE_LIMIT_STORE: in memory (one instance) or in PostgreSQL's
 * `rate_limits` table (shared by all instances, with an in-memory fallback if the database
 * errs). Every per-client limit of the service is made here, so none counts per instance by
 * accident when several run.
 */
@Injectable()
export class RateLimiters {
  constructor(
    @InjectSettings(authSettings) private readonly settings: AuthSettings,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  create(opts: RateLimiterOptions): RateLimiterAbstract {
    if (this.settings.rateLimitStore !== 'postgres') return new RateLimiterMemory(opts);
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
