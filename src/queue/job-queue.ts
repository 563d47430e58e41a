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
 * The durable job queue: pg-boss on the application's own PostgreSQL (embedded or not), no
 * extra server. pg-boss keeps its tables in its own schema (QUEUE_SCHEMA), which the migrations
 * create and upgrade with every declared queue (queue-schema.ts). Every `@QueueJob()` provider
 * gets its queue's policy at init and its pollers once the app is up; a job is worked by one instance at a time (SKIP
 * LOCKED), and a job whose worker died is worked again once it expires.
 */
@Injectable()
export class JobQueue implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private boss?: PgBoss;
  private starting?: Promise<PgBoss>;
  /** pg-boss's SQL on the application's pool; drained at shutdown (see beforeApplicationShutdown). */
  private executor?: DrainableExecutor;
  private readonly jobs = new Map<QueueJobClass<unknown>, QueueJobHandler<unknown>>();
  private readonly log: Logger;

  /**
   * pg-boss 10 records a worked job's outcome with complete()/fail() calls its worker does not
   * await: when the database drops at that moment the rejection is unhandled, and Node ends the
   * whole process (found by the database-outage reliability suite). Losing that write is
   * harmless: the job expires and is worked again, and the handlers are idempotent. So a lost
   * connection is logged; any other unhandled rejection stays fatal, as without this listener.
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
    const depth = () => this.depthByState();
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

  /**
   * Finds every declared job and sets its queue's policy (retries, expiry: settings may change
   * them between starts). The queue itself was created by the migrations (the slice's `queues`);
   * a job whose queue is missing stops the start, naming it.
   */
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

  /** Starts each declared job's pollers once the whole app is up. */
  async onApplicationBootstrap(): Promise<void> {
    for (const job of this.jobs.values()) {
      if (job.concurrency > 0) await this.work(job);
    }
  }

  /** Counts of jobs per queue and state (for /metrics); empty before the queue has started. */
  async depthByState(): Promise<Array<{ name: string; state: string; count: number }>> {
    if (!this.boss) return [];
    return this.db.query<Array<{ name: string; state: string; count: number }>>(
      `SELECT name, state, count(*)::int AS count FROM ${this.config.queue.schema}.job GROUP BY name, state`,
    );
  }

  /**
   * Enqueues a job of a declared kind. Inside `Transactions.run` it joins the transaction (the
   * job exists only if the transaction commits); outside, it commits at once.
   */
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

  /**
   * Enqueues a job in the same SQL statement as the row it is about (see insertJobSql), with
   * the queue's own policy: for a hot path written as one statement. `data` is an SQL `jsonb`
   * expression over the statement's source CTE.
   */
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

  /** Starts pg-boss once (idempotent). */
  private start(): Promise<PgBoss> {
    this.starting ??= (async () => {
      this.executor = poolExecutor(this.db);
      const boss = new PgBoss({
        db: this.executor,
        schema: this.config.queue.schema,
        supervise: true,
        maintenanceIntervalSeconds: this.config.queue.maintenanceIntervalSeconds,
        schedule: false,
        // The migrations install and upgrade the schema (queue-schema.ts); this only checks it.
        migrate: false,
      });
      boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
      process.on('unhandledRejection', this.onUnhandledRejection);
      await boss.start();
      this.boss = boss;
      return boss;
    })();
    return this.starting;
  }

  /**
   * Registers `concurrency` independent pollers, each working one job at a time and fetching
   * the next one immediately while there is work (the polling interval only applies when idle).
   */
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
            // pg-boss waits out the polling interval after every fetch; a poller that just
            // found work asks again at once, so a backlog drains at delivery speed.
            if (worker.id) boss.notifyWorker(worker.id);
          }
        },
      );
    }
    this.log.debug({ queue: job.name, concurrency: job.concurrency }, 'job pollers started');
  }

  /**
   * Lets in-flight jobs finish (up to the grace period); unfinished ones return to the queue on
   * expiry. Before, not on, application shutdown: TypeORM closes the pool on shutdown, and a
   * job finishing after that could not record its outcome.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.boss) return;
    await this.boss.stop({
      graceful: true,
      close: false,
      wait: true,
      timeout: this.config.http.shutdownGraceMs,
    });
    // The stop returns once the handlers have; their outcome writes may still be under way.
    await this.executor?.drain();
    process.off('unhandledRejection', this.onUnhandledRejection);
  }
}
