import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsService } from '../common/metrics/metrics.service.js';
import { InjectSettings } from '../config/inject-settings.js';
import { auditoriaSettings, type AuditoriaSettings } from './auditoria.settings.js';
import { SEALING_STATE_SQL } from './audit-seals.sql.js';

/**
 * Whether sealing keeps up (the operators' alert), read from the shared database at scrape time:
 * every instance reports the same value; a failed read keeps the previous one.
 */
@Injectable()
export class AuditoriaMetrics {
  constructor(
    metrics: MetricsService,
    @InjectDataSource() db: DataSource,
    @InjectSettings(auditoriaSettings) settings: AuditoriaSettings,
  ) {
    const registers = [metrics.registry];
    let state = { last_seal: 0, oldest_unsealed_age: 0 };
    const refresh = async () => {
      const [row] = await db
        .query<Array<{ last_seal: number | null; oldest_unsealed_age: number | null }>>(
          SEALING_STATE_SQL,
        )
        .catch(() => []);
      if (row)
        state = {
          last_seal: row.last_seal ?? 0,
          oldest_unsealed_age: Math.max(0, row.oldest_unsealed_age ?? 0),
        };
      return state;
    };
    new Gauge({
      name: 'auditoria_oldest_unsealed_event_age_seconds',
      aggregator: 'max',
      help: 'Age of the oldest event no seal covers yet (0: none); cluster-wide, aggregate with max',
      registers,
      async collect() {
        this.set((await refresh()).oldest_unsealed_age);
      },
    });
    new Gauge({
      name: 'auditoria_last_seal_timestamp_seconds',
      aggregator: 'max',
      help: 'Unix time of the last seal (0: none yet); cluster-wide, aggregate with max',
      registers,
      collect() {
        this.set(state.last_seal);
      },
    });
    new Gauge({
      name: 'auditoria_seal_interval_seconds',
      aggregator: 'max',
      help: 'AUDIT_SEAL_SECONDS: how often this instance seals new events (0: sealing off here)',
      registers,
    }).set(settings.sealSeconds);
  }
}
