import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logging.module.js';
import { dataSourceOptions } from '../data-source-options.js';
import { MIGRATION_LOCK } from '../migrate.js';
import { type Aseguradas, asegurarEnTransaccion } from './particiones.js';
import type { PartitionedTable } from './particionadas.js';

/** What the scheduler needs: who owns the tables, and which they are. */
export interface ParticionesOptions {
  /** The migration role's URL (DATABASE_MIGRATION_URL, else DATABASE_URL): it owns the tables. */
  ownerUrl: string;
  tables: readonly PartitionedTable[];
  /** Hours between runs (the start's run is the migrations'). */
  everyHours: number;
}

export const PARTICIONES_OPTIONS = Symbol('PARTICIONES_OPTIONS');

/**
 * Keeps the months ahead while the service runs (the start already made them, under the
 * migrations' lock): every `everyHours`, the next months' partitions and the current month's
 * opening of each id sequence (particiones.ts), so a service running across a month's end
 * moves its sequences within the hour. As the tables' owner, on a connection of its own opened
 * for the run, under the migrations' advisory lock; on every instance, the lock making the
 * others wait and then find nothing to do.
 * A failed run is retried at the next tick: three months ahead leave time.
 */
@Injectable()
export class ParticionesScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<Aseguradas | null>;
  private readonly log: Logger;

  constructor(
    @Inject(PARTICIONES_OPTIONS) private readonly options: ParticionesOptions,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'particiones' });
  }

  onApplicationBootstrap(): void {
    if (this.options.tables.length === 0 || this.options.everyHours <= 0) return;
    const ms = this.options.everyHours * 3_600_000;
    this.timer = setInterval(() => void this.tick(), ms).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One run now (also what the timer calls): what it did, or null when it failed; never rejects. */
  tick(now = new Date()): Promise<Aseguradas | null> {
    this.running ??= this.run(now).finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(now: Date): Promise<Aseguradas | null> {
    const ds = new DataSource(dataSourceOptions(this.options.ownerUrl, 1));
    try {
      await ds.initialize();
      const q = ds.createQueryRunner();
      try {
        await q.connect();
        await q.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        const done = await asegurarEnTransaccion(q, this.options.tables, now);
        if (done.creadas.length > 0 || done.abiertas.length > 0)
          this.log.info(done, 'partitions ahead created; month opened');
        return done;
      } finally {
        await q.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        await q.release();
      }
    } catch (err) {
      this.log.warn({ err }, 'creating partitions ahead failed; retried at the next tick');
      return null;
    } finally {
      if (ds.isInitialized) await ds.destroy();
    }
  }
}
