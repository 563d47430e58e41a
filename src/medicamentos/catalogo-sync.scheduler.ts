import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import { medicamentosSettings, type MedicamentosSettings } from './medicamentos.settings.js';
import { CatalogoSyncService, MirrorLoadingElsewhere } from './catalogo-sync.service.js';

const SYNC_INTERVAL = 'catalogo-sync';

/**
 * When the sync runs inside the service: once at start if the mirror is empty (unless
 * CATALOG_SYNC_ON_START=false), then every CATALOG_SYNC_INTERVAL_MINUTES (0: never), on an
 * unref'd interval; a recent sync by another instance makes a scheduled run skip.
 */
@Injectable()
export class CatalogoSyncScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log: Logger;

  constructor(
    private readonly schedule: SchedulerRegistry,
    private readonly sync: CatalogoSyncService,
    @InjectSettings(medicamentosSettings) private readonly settings: MedicamentosSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'catalogo-sync' });
  }

  onApplicationBootstrap(): void {
    // Not awaited: readiness must not wait for the upstream. A failure is logged by the sync,
    // and a search on the empty mirror tries again.
    if (this.settings.syncOnStart) {
      this.sync.ensureLoaded('startup').catch((err: unknown) => {
        // Several instances starting together: one loads, the others need not worry anyone.
        if (err instanceof MirrorLoadingElsewhere)
          this.log.info('another instance is loading the catalogue mirror');
        else this.log.warn({ err }, 'catalogue mirror not loaded at start');
      });
    }
    const minutes = this.settings.syncIntervalMinutes;
    if (minutes > 0) {
      const timer = setInterval(() => {
        this.sync.run('scheduled').catch(() => undefined); // logged by the sync
      }, minutes * 60_000).unref();
      this.schedule.addInterval(SYNC_INTERVAL, timer);
    }
  }

  /** Stops the ticks (before the schedule module would) and waits for a sync in progress. */
  async onModuleDestroy(): Promise<void> {
    if (this.schedule.doesExist('interval', SYNC_INTERVAL))
      this.schedule.deleteInterval(SYNC_INTERVAL);
    await this.sync.stop();
  }
}
