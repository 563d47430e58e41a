import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { isConnectionFailure } from '../common/database-errors.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { MetricsService } from '../common/metrics/metrics.service.js';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Transactions } from '../database/transactions.js';
import { insertJobSql } from './job.sql.js';
import { QUEUE_JOB, QueueJobClass, QueueJobHandler } from './queue-job.js';
import { poolExecutor, transactionExecutor, type DrainableExecutor } from './sql-executor.js';

export interface EnqueueOptions {
  startAfter?: Date;
  /** Deduplicates against a queued job with the same key (pg-boss singletonKey). */
  singletonKey?: string;
}

/**
 * The durable job queue: pg-boss on the application's own PostgreSQL, in its own schema (made by
 * the migrations: queue-schema.ts). Every `@QueueJob()` provider gets its queue's policy at init
 * and its pollers once the app is up; a job whose worker died is worked again once it expires.
 */
@Injectable()
export class JobQueue implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private boss?: PgBoss;
  private starting?: Promise<PgBoss>;
  private executor?: DrainableExecutor;
  private readonly jobs = new Map<QueueJobClass<unknown>, QueueJobHandler<unknown>>();
  private readonly log: Logger;

  /**
   * pg-boss 10 does not await a worked job's complete()/fail(): a database dropping then would
   * end the process. Losing that write is harmless (the job expires and runs again), so a lost
   * connection is logged; any other unhandled rejection stays fatal.
   */
  private readonly onUnhandledRejection = (reason: unknown): void => {
    if (!isConnectionFailure(reason)) throw reason;
    this.log.warn(
      { err: reason },
      'job outcome not recorded (database unavailable): the job runs again once it expires',
    );
  };

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly transactions: Transactions,
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    metrics: MetricsService,
  ) {
    this.log = logger.child({ component: 'queue' });
    const depth = async () =>
      this.boss
        ? this.db.query<Array<{ name: string; state: string; count: number }>>(
            `SELECT name, state, count(*)::int AS count FROM ${this.config.queue.schema}.job GROUP BY name, state`,
          )
        : [];
    new Gauge({
      name: 'job_queue_jobs',
      aggregator: 'max',
      help: 'Jobs in the queue by queue and state (created, retry, active, completed, failed…); cluster-wide, read from the shared database: every instance reports the same value, aggregate with max, not sum',
      labelNames: ['queue', 'state'],
      registers: [metrics.registry],
      async collect() {
        this.reset();
        for (const r of await depth()) this.set({ queue: r.name, state: r.state }, r.count);
      },
    });
  }

  /** Sets every declared job's queue policy (settings may change it); a missing queue stops the start. */
  async onModuleInit(): Promise<void> {
    const boss = await this.start();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as QueueJobHandler<unknown> | undefined;
      if (!instance || !wrapper.metatype) continue;
      if (Reflect.getMetadata(QUEUE_JOB, wrapper.metatype) !== true) continue;
      if (!(await boss.getQueue(instance.name)))
        throw new Error(
          `job queue ${instance.name} does not exist: declare it in its module's slice (queues), so the migrations create it`,
        );
      await boss.updateQueue(instance.name, { name: instance.name, ...instance.policy });
      this.jobs.set(wrapper.metatype as QueueJobClass<unknown>, instance);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const job of this.jobs.values()) {
      if (job.concurrency > 0) await this.work(job);
    }
  }

  /** Enqueues a job; inside `Transactions.run` it commits or rolls back with the transaction. */
  async enqueue<T>(
    job: QueueJobClass<T>,
    data: T,
    opts: EnqueueOptions = {},
  ): Promise<string | null> {
    const boss = await this.start();
    const name = this.handlerOf(job).name;
    const sendOptions = this.transactions.active
      ? { ...opts, db: transactionExecutor(this.transactions.manager) }
      : opts;
    return boss.send(name, data as object, sendOptions as PgBoss.SendOptions);
  }

  /** The job inserted in the statement writing its row (insertJobSql); `data` is SQL jsonb over `source`. */
  jobInStatement<T>(job: QueueJobClass<T>, data: (source: string) => string): CompanionStatement {
    const name = this.handlerOf(job).name;
    const schema = this.config.queue.schema;
    return (p, source) =>
      insertJobSql(schema, p, { queue: name, data: data(source), from: source });
  }

  private handlerOf<T>(job: QueueJobClass<T>): QueueJobHandler<T> {
    const handler = this.jobs.get(job);
    if (!handler) throw new Error(`${job.name} is not a provider of any module (or not @QueueJob)`);
    return handler;
  }

  private start(): Promise<PgBoss> {
    this.starting ??= (async () => {
      this.executor = poolExecutor(this.db);
      const boss = new PgBoss({
        db: this.executor,
        schema: this.config.queue.schema,
        supervise: true,
        maintenanceIntervalSeconds: this.config.queue.maintenanceIntervalSeconds,
        schedule: false,
        migrate: false, // the migrations install it (queue-schema.ts)
      });
      boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
      process.on('unhandledRejection', this.onUnhandledRejection);
      await boss.start();
      this.boss = boss;
      return boss;
    })();
    return this.starting;
  }

  /** `concurrency` pollers, each working one job at a time and asking again at once after one. */
  private async work(job: QueueJobHandler<unknown>): Promise<void> {
    const boss = await this.start();
    for (let i = 0; i < job.concurrency; i++) {
      // The handler may run before work() resolves with the id, hence a holder, not a const.
      const worker: { id?: string } = {};
      worker.id = await boss.work<unknown>(
        job.name,
        {
          batchSize: 1,
          includeMetadata: true,
          pollingIntervalSeconds: this.config.queue.pollIntervalSeconds,
        },
        async ([next]) => {
          try {
            await job.handle(next);
          } finally {
            // Else pg-boss waits out the polling interval after every fetch.
            if (worker.id) boss.notifyWorker(worker.id);
          }
        },
      );
    }
    this.log.debug({ queue: job.name, concurrency: job.concurrency }, 'job pollers started');
  }

  /**
   * Lets in-flight jobs finish (up to the grace period), before the pool closes on shutdown so
   * that they can record their outcome; unfinished ones return to the queue on expiry.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.boss) return;
    await this.boss.stop({
      graceful: true,
      close: false,
      wait: true,
      timeout: this.config.http.shutdownGraceMs,
    });
    // The handlers have returned; their outcome writes may still be under way.
    await this.executor?.drain();
    process.off('unhandledRejection', this.onUnhandledRejection);
  }
}
