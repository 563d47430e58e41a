import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logging.module.js';
import type { PartitionedTable } from './particionadas.js';

/** Which tables are partitioned (the slices' declarations), for the scheduler and the gauge. */
export interface ParticionesOptions {
  tables: readonly PartitionedTable[];
}

export const PARTICIONES_OPTIONS = Symbol('PARTICIONES_OPTIONS');

/** A month's opening of one sequence, as `particiones_abrir_mes()` reports it. */
export interface Apertura {
  secuencia: string;
  periodo: string;
  primer_id: string;
}

/**
 * Opens the month in the id sequences while the service runs, at every hour's start (UTC), so the
 * first second of a month already draws its ids: the database function `particiones_abrir_mes()`
 * (migration FuncionesFijas), a SECURITY DEFINER door the migration role owns, which moves each
 * sequence up to the month's first id and records it. The service holds no migration-role
 * credentials (SPEC 11.1); the partitions themselves are created a year ahead by the migrations,
 * at every start and by the scheduled `npm run cli -- particiones crear`. Idempotent: every
 * instance runs it, the first of a month moves the sequences, the others find nothing to do.
 */
@Injectable()
export class ParticionesScheduler {
  private readonly log: Logger;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'particiones' });
  }

  /** One run now (also what the schedule calls): the sequences it moved, or null when it failed. */
  @Cron('0 0 * * * *', { name: 'particiones-abrir-mes', timeZone: 'UTC' })
  async tick(): Promise<Apertura[] | null> {
    try {
      const opened = await this.db.query<Apertura[]>(
        `SELECT secuencia, periodo::text AS periodo, primer_id::text AS primer_id
           FROM particiones_abrir_mes()`,
      );
      if (opened.length > 0) this.log.info({ abiertas: opened }, 'month opened');
      return opened;
    } catch (err) {
      this.log.warn({ err }, 'opening the month failed; tried again at the next hour');
      return null;
    }
  }
}
