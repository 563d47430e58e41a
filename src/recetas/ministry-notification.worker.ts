import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { JobQueue } from '../queue/job-queue.js';
import { MinistryNotificationService } from './ministry-notification.service.js';
import { MINISTRY_QUEUE, NotificationJob } from './notification-job.js';

/** Starts the delivery pollers once the app is up (unless MINISTRY_DELIVERY_ENABLED=false). */
@Injectable()
export class MinistryNotificationWorker implements OnApplicationBootstrap {
  private readonly log: Logger;

  constructor(
    private readonly notifications: MinistryNotificationService,
    private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'ministry-worker' });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.ministry.deliveryEnabled) {
      this.log.warn(
        'ministry delivery is paused (MINISTRY_DELIVERY_ENABLED=false): notifications stay queued',
      );
      return;
    }
    await this.queue.work<NotificationJob>(
      MINISTRY_QUEUE,
      this.config.ministry.workerConcurrency,
      this.config.queue.pollIntervalSeconds,
      (job) => this.notifications.process(job.data),
    );
    this.log.info(
      { concurrency: this.config.ministry.workerConcurrency },
      'ministry delivery workers started',
    );
  }
}
