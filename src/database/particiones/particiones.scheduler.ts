import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logging.module.js';
import type { PartitionedTable } from './particionadas.js';

export interface ParticionesOptions {
  tables: readonly PartitionedTable[];
}

export const PARTICIONES_OPTIONS = Symbol('PARTICIONES_OPTIONS');

interface Apertura {
  secuencia: string;
  periodo: string;
  primer_id: string;
}

/**
 * Opens the month in the id sequences at every hour's start (UTC) through the migration role's
 * SECURITY DEFINER door `particiones_abrir_mes()`; idempotent, so every instance runs it.
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

  /** The sequences it moved, or null when it failed. */
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
