import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import { auditoriaSettings, type AuditoriaSettings } from './auditoria.settings.js';
import { AuditSealer } from './audit-sealer.js';

const SEAL_INTERVAL = 'auditoria-sellar';

/**
 * Seals the event log every AUDIT_SEAL_SECONDS (0: never) on every instance (the sealer's lock
 * makes the others skip), on an unref'd interval; a tick during a run joins it.
 */
@Injectable()
export class AuditSealScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log: Logger;

  constructor(
    private readonly schedule: SchedulerRegistry,
    private readonly sealer: AuditSealer,
    @InjectSettings(auditoriaSettings) private readonly settings: AuditoriaSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'auditoria' });
  }

  onApplicationBootstrap(): void {
    const seconds = this.settings.sealSeconds;
    if (seconds > 0) {
      const timer = setInterval(() => void this.tick(), seconds * 1000).unref();
      this.schedule.addInterval(SEAL_INTERVAL, timer);
    }
  }

  /** Stops the ticks and waits for a seal in progress. */
  async onModuleDestroy(): Promise<void> {
    if (this.schedule.doesExist('interval', SEAL_INTERVAL))
      this.schedule.deleteInterval(SEAL_INTERVAL);
    await this.sealer.idle();
  }

  private async tick(): Promise<void> {
    try {
      const run = await this.sealer.sealNow();
      if (run.outcome === 'sealed') {
        for (const s of run.seals)
          this.log.debug({ seal: s.id, eventos: s.eventos }, 'event log sealed');
      }
    } catch (err) {
      // The next tick seals the same events: nothing is lost while sealing fails.
      this.log.warn({ err }, 'event log seal failed; retried at the next tick');
    }
  }
}
