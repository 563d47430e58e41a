import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsService } from '../../common/metrics/metrics.service.js';

/** The transactions still waiting for the ministry (the partial index recetas_pending). */
export const BACKLOG_SQL = `
  SELECT count(*)::int AS pending,
         COALESCE(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_age
    FROM recetas WHERE estado = 'PENDING'`;

/**
 * The ministry backlog for the operators' alerts, read at scrape time: every instance reports
 * the same value (aggregate with max); a failed read keeps the previous one.
 */
@Injectable()
export class MinisterioBacklogMetrics {
  constructor(metrics: MetricsService, @InjectDataSource() db: DataSource) {
    const registers = [metrics.registry];
    let state = { pending: 0, oldest_age: 0 };
    const refresh = async () => {
      const rows = await db
        .query<Array<{ pending: number; oldest_age: number }>>(BACKLOG_SQL)
        .catch(() => undefined);
      if (rows?.[0]) state = rows[0];
      return state;
    };
    new Gauge({
      name: 'ministry_backlog_transactions',
      aggregator: 'max',
      help: 'Registrations still PENDING at the ministry; cluster-wide, aggregate with max',
      registers,
      async collect() {
        this.set((await refresh()).pending);
      },
    });
    new Gauge({
      name: 'ministry_oldest_pending_age_seconds',
      aggregator: 'max',
      help: 'Age of the oldest PENDING registration (0: none); cluster-wide, aggregate with max',
      registers,
      collect() {
        this.set(state.oldest_age);
      },
    });
  }
}
