import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service.js';
import { InjectSettings } from '../config/inject-settings.js';
import { medicamentosSettings, type MedicamentosSettings } from './medicamentos.settings.js';
import { MirrorSyncRepository } from './mirror-sync.repository.js';

/** The sync's Prometheus metrics: outcome and duration per run, last success and mirror size. */
@Injectable()
export class CatalogoSyncMetrics {
  private readonly runs: Counter<'outcome'>;
  private readonly duration: Histogram<'outcome'>;

  constructor(
    metrics: MetricsService,
    state: MirrorSyncRepository,
    @InjectSettings(medicamentosSettings) settings: MedicamentosSettings,
  ) {
    const registers = [metrics.registry];
    new Gauge({
      name: 'catalogo_sync_interval_seconds',
      aggregator: 'max',
      help: 'CATALOG_SYNC_INTERVAL_MINUTES in seconds: how often the mirror is refreshed (0: only by command)',
      registers,
    }).set(settings.syncIntervalMinutes * 60);
    this.runs = new Counter({
      name: 'catalogo_sync_runs_total',
      help: 'Catalogue sync runs by outcome (skipped: another instance held the lock, or fresh)',
      labelNames: ['outcome'],
      registers,
    });
    this.duration = new Histogram({
      name: 'catalogo_sync_duration_seconds',
      help: 'Duration of catalogue sync runs by outcome',
      labelNames: ['outcome'],
      buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    });
    // Read from the database at scrape time, so every instance reports the last sync of any;
    // a failed read keeps the previous value rather than failing /metrics.
    let last: { at: number; items: number } | undefined;
    const refresh = async () => {
      const s = await state.lastSync().catch(() => undefined);
      if (s) last = { at: s.syncedAt.getTime() / 1000, items: s.itemCount };
      return last;
    };
    new Gauge({
      name: 'catalogo_sync_last_success_timestamp_seconds',
      aggregator: 'max',
      help: 'Unix time of the last successful catalogue sync by any instance (0: never); cluster-wide: aggregate with max, not sum',
      registers,
      async collect() {
        this.set((await refresh())?.at ?? 0);
      },
    });
    new Gauge({
      name: 'catalogo_mirror_items',
      aggregator: 'max',
      help: 'Items in the catalogue mirror after the last successful sync; cluster-wide, read from the shared database: every instance reports the same value, aggregate with max, not sum',
      registers,
      async collect() {
        this.set((await refresh())?.items ?? 0);
      },
    });
  }

  record(outcome: 'success' | 'failure' | 'skipped', seconds: number): void {
    this.runs.inc({ outcome });
    this.duration.observe({ outcome }, seconds);
  }
}
