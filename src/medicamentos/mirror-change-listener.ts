import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { CatalogoSyncService } from './catalogo-sync.service.js';
import { MIRROR_CHANGED_CHANNEL } from './mirror-sync.repository.js';

const MAX_RETRY_MS = 30_000;
/** How long the listener waits for its own test notification before it calls itself deaf. */
const PROBE_MS = 3000;
const PROBE_PREFIX = 'probe:';

/**
 * Hears every catalogue sync committed by any process (another instance, the CLI) through
 * LISTEN/NOTIFY and has this instance drop its search cache. A connection of its own, outside
 * the pool (LISTEN lasts the session). Lost, it reconnects with backoff and then clears once,
 * since notifications sent meanwhile were missed. Where notifications cannot reach it (a
 * transaction-pooling proxy: its own probe never arrives) it says so once and closes.
 */
@Injectable()
export class MirrorChangeListener implements OnApplicationBootstrap, OnModuleDestroy {
  private client?: pg.Client;
  private retry?: NodeJS.Timeout;
  private probe?: { token: string; heard: () => void };
  private failures = 0;
  private stopped = false;
  private readonly log: Logger;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sync: CatalogoSyncService,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'catalogo-listener' });
  }

  /** Listening before the service answers when the database allows; never fails the start. */
  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.retry = undefined;
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: (this.db.options as { url?: string }).url,
      // Named per process, so an operator (or a test) can tell the instances' listeners apart.
      application_name: `catalogo-listener ${process.pid}`,
    });
    client.on('notification', (n) => {
      if (n.channel !== MIRROR_CHANGED_CHANNEL) return;
      if (!n.payload?.startsWith(PROBE_PREFIX)) this.sync.mirrorChanged();
      else if (n.payload === this.probe?.token) this.probe.heard();
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${MIRROR_CHANGED_CHANNEL}`);
    } catch (err) {
      this.lost(client, err);
      await client.end().catch(() => undefined);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.failures > 0) {
      this.log.info('listening for catalogue syncs again');
      this.sync.mirrorChanged();
    }
    this.failures = 0;
    void this.checkHearing(client);
  }

  /** Sends itself a notification through the pool; closes the listener if it never hears it. */
  private async checkHearing(client: pg.Client): Promise<void> {
    const token = `${PROBE_PREFIX}${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = await new Promise<boolean>((resolve) => {
      this.probe = { token, heard: () => resolve(true) };
      timer = setTimeout(() => resolve(false), PROBE_MS).unref();
      this.db
        .query('SELECT pg_notify($1, $2)', [MIRROR_CHANGED_CHANNEL, token])
        .catch(() => resolve(true)); // the database is down: the listener's own errors tell
    });
    clearTimeout(timer);
    this.probe = undefined;
    if (heard || this.stopped || this.client !== client) return;
    this.log.info(
      'this database does not deliver notifications to a listening connection (a transaction-pooling proxy?): a catalogue sync by another process shows here after CATALOG_SEARCH_CACHE_SECONDS',
    );
    this.stopped = true;
    this.client = undefined;
    await client.end().catch(() => undefined);
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.stopped || this.retry || (this.client !== undefined && this.client !== client)) return;
    this.client = undefined;
    this.failures++;
    const delay = Math.min(MAX_RETRY_MS, 500 * 2 ** Math.min(this.failures - 1, 10));
    if (this.failures === 1) {
      this.log.warn(
        { err, retry_ms: delay },
        'not listening for catalogue syncs; searches may be stale until reconnected',
      );
    }
    this.retry = setTimeout(() => void this.connect(), delay).unref();
  }
}
