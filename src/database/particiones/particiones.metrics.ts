import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { listarParticiones } from './particiones.js';
import { PARTICIONES_OPTIONS, type ParticionesOptions } from './particiones.scheduler.js';
import { compare, periodoDe, type Periodo, siguiente } from './periodos.js';

/** The months ahead every partitioned table has, for the operators' alert; a failed read keeps the last value. */
@Injectable()
export class ParticionesMetrics {
  constructor(
    metrics: MetricsService,
    @InjectDataSource() db: DataSource,
    @Inject(PARTICIONES_OPTIONS) options: ParticionesOptions,
  ) {
    let ahead = 0;
    new Gauge({
      name: 'particiones_meses_adelante',
      aggregator: 'min',
      help: 'Months after the current one that every partitioned table has (-1: the current one is missing); aggregate with min',
      registers: [metrics.registry],
      async collect() {
        const rows = await listarParticiones(db, options.tables).catch(() => undefined);
        if (rows)
          ahead = mesesAdelante(
            rows.flatMap((r) => (r.periodo ? [r] : [])),
            options.tables.map((t) => t.table),
          );
        this.set(ahead);
      },
    });
  }
}

/** Consecutive months from the current one that every table has, minus the current one. */
export function mesesAdelante(
  rows: ReadonlyArray<{ tabla: string; periodo: string | null }>,
  tables: readonly string[],
  now = new Date(),
): number {
  const have = new Set(rows.map((r) => `${r.tabla} ${r.periodo}`));
  const key = (p: Periodo) => `${p.year}-${String(p.month).padStart(2, '0')}`;
  let n = -1;
  for (let p = periodoDe(now); compare(p, siguiente(periodoDe(now), 24)) < 0; p = siguiente(p)) {
    if (!tables.every((t) => have.has(`${t} ${key(p)}`))) break;
    n++;
  }
  return n;
}
