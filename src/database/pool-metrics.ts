import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsService } from '../common/metrics/metrics.service.js';

/** The connection pool, per instance: `waiting` above 0 for minutes means it is saturated. */
@Injectable()
export class PoolMetrics {
  constructor(metrics: MetricsService, @InjectDataSource() db: DataSource) {
    const pool = () => (db.driver as unknown as { master?: Pool }).master;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections of this instance by state (total, idle, waiting: callers queued for one)',
      labelNames: ['state'],
      registers: [metrics.registry],
      collect() {
        const p = pool();
        this.set({ state: 'total' }, p?.totalCount ?? 0);
        this.set({ state: 'idle' }, p?.idleCount ?? 0);
        this.set({ state: 'waiting' }, p?.waitingCount ?? 0);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'DATABASE_POOL_SIZE: the most connections this instance opens',
      registers: [metrics.registry],
      collect() {
        this.set(pool()?.options.max ?? 0);
      },
    });
  }
}
