import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CatalogoSyncService } from './catalogo-sync.service.js';

/**
 * When the sync runs inside the service: once at start if the mirror is empty (unless
 * CATALOG_SYNC_ON_START=false; a search on an empty mirror still syncs first), then every
 * CATALOG_SYNC_INTERVAL_MINUTES (0: never; the CLI command remains). A plain unref'd timer:
 * it needs no scheduler module, never keeps the process alive, and instances that synced
 * recently make the others' scheduled runs skip (see CatalogoSyncService.isFresh).
 */
@Injectable()
export class CatalogoSyncScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private readonly log: Logger;

  constructor(
    private readonly sync: CatalogoSyncService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'catalogo-sync' });
  }

  onApplicationBootstrap(): void {
    // Not awaited: readiness must not wait for the upstream. A failure is logged by the sync,
    // and a search on the empty mirror tries again.
    if (this.config.catalog.syncOnStart) {
      this.sync.ensureLoaded('startup').catch((err: unknown) => {
        this.log.warn({ err }, 'catalogue mirror not loaded at start');
      });
    }
    const minutes = this.config.catalog.syncIntervalMinutes;
    if (minutes > 0) {
      this.timer = setInterval(() => {
        this.sync.run('scheduled').catch(() => undefined); // logged by the sync
      }, minutes * 60_000).unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.sync.stop();
  }
}
