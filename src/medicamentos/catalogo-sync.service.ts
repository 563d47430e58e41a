import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DomainError } from '../common/errors/domain-error.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import { medicamentosSettings, type MedicamentosSettings } from './medicamentos.settings.js';
import { CatalogoClient } from './catalogo.client.js';
import { CatalogoSyncMetrics } from './catalogo-sync.metrics.js';
import { type MirrorRow, toMirrorRow } from './medicamento-mapping.js';
import { MedicamentosRepository } from './medicamentos.repository.js';
import { type ApplyCounts, MirrorSyncRepository, type SyncLock } from './mirror-sync.repository.js';

export type SyncTrigger = 'startup' | 'scheduled' | 'on-demand' | 'cli' | 'manual';

export type SyncResult =
  | ({ outcome: 'success'; items: number; duration_ms: number } & ApplyCounts)
  | { outcome: 'skipped'; reason: 'locked' | 'fresh'; duration_ms: number };

/** Far above any national catalogue (~30k presentations); a larger total is a broken upstream. */
const MAX_ITEMS = 1_000_000;

const unavailable = (message: string) => new DomainError('UPSTREAM_UNAVAILABLE', message);

/**
 * The mirror is empty because another instance holds the sync lock and is loading it: to a
 * search the same UPSTREAM_UNAVAILABLE, to the start-up sync no cause for a warning.
 */
export class MirrorLoadingElsewhere extends DomainError {
  constructor() {
    super(
      'UPSTREAM_UNAVAILABLE',
      'The medication catalogue is being loaded by another instance; try again shortly',
    );
  }
}

/**
 * Mirrors the official catalogue: pages through it, then replaces the mirror in one short
 * transaction (no staging table: the catalogue is a few tens of MB, checked before anything is
 * written, and a failed page leaves the previous mirror intact). One sync at a time: in-process
 * by sharing the running promise, across instances by an advisory lock.
 */
@Injectable()
export class CatalogoSyncService {
  private running?: Promise<SyncResult>;
  private readonly changeListeners: Array<() => void> = [];
  private stopping = false;
  private readonly log: Logger;

  constructor(
    private readonly mirror: MirrorSyncRepository,
    private readonly reader: MedicamentosRepository,
    private readonly catalogo: CatalogoClient,
    private readonly metrics: CatalogoSyncMetrics,
    @InjectSettings(medicamentosSettings) private readonly settings: MedicamentosSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'catalogo-sync' });
  }

  /** Syncs now, or joins this instance's running sync. Throws on failure (mirror untouched). */
  run(trigger: SyncTrigger): Promise<SyncResult> {
    this.running ??= this.exclusive(trigger).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Called after every sync applied here or by another process (MirrorChangeListener). */
  onMirrorChanged(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  mirrorChanged(): void {
    for (const listener of this.changeListeners) listener();
  }

  /** Loads an empty mirror, or throws UPSTREAM_UNAVAILABLE (MirrorLoadingElsewhere). */
  async ensureLoaded(trigger: SyncTrigger): Promise<void> {
    if (!(await this.reader.isEmpty())) return;
    const result = await this.run(trigger);
    if (await this.reader.isEmpty()) {
      if (result.outcome === 'skipped' && result.reason === 'locked')
        throw new MirrorLoadingElsewhere();
      throw unavailable('The medication catalogue is not loaded yet; try again later');
    }
  }

  /** Interrupts the running sync at the next page and waits for it to end. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running?.catch(() => undefined);
  }

  private async exclusive(trigger: SyncTrigger): Promise<SyncResult> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let lock: SyncLock | undefined;
    try {
      lock = await this.mirror.tryLock();
      if (!lock || (trigger === 'scheduled' && (await this.isFresh()))) {
        const reason = lock ? 'fresh' : 'locked';
        this.log.info({ trigger, reason }, 'catalogue sync skipped');
        this.metrics.record('skipped', ms() / 1000);
        return { outcome: 'skipped', reason, duration_ms: ms() };
      }
      this.log.info({ trigger }, 'catalogue sync started');
      const rows = await this.fetchAll();
      const counts = await this.mirror.replaceAll(rows);
      const result: SyncResult = {
        outcome: 'success',
        items: rows.length,
        ...counts,
        duration_ms: ms(),
      };
      this.metrics.record('success', ms() / 1000);
      this.log.info({ trigger, ...result }, 'catalogue sync finished');
      this.mirrorChanged();
      return result;
    } catch (err) {
      this.metrics.record('failure', ms() / 1000);
      this.log.error(
        { trigger, err, duration_ms: ms() },
        'catalogue sync failed; mirror unchanged',
      );
      throw err;
    } finally {
      await lock?.release();
    }
  }

  /** Another instance synced within most of the interval: a scheduled run would repeat it. */
  private async isFresh(): Promise<boolean> {
    const last = await this.mirror.lastSync();
    const intervalMs = this.settings.syncIntervalMinutes * 60_000;
    return last !== undefined && Date.now() - last.syncedAt.getTime() < intervalMs * 0.9;
  }

  private async fetchAll(): Promise<MirrorRow[]> {
    const perPage = this.settings.syncPageSize;
    const byCode = new Map<string, MirrorRow>();
    let total: number | undefined;
    for (let page = 1; ; page++) {
      if (this.stopping) throw new Error('catalogue sync interrupted: the service is stopping');
      const answer = await this.catalogo.fetchPage(page, perPage);
      total ??= answer.total;
      // Offset paging over a catalogue that changes under it can skip an item, which would
      // then be deleted from the mirror: a changed total, or fewer distinct codes than the
      // total at the end, fails the run instead (the next one sees a settled catalogue).
      if (answer.total !== total) throw changedDuringSync(total, answer.total);
      if (total > MAX_ITEMS)
        throw unavailable(`The catalogue reports ${total} items, over the limit`);
      for (const item of answer.items) byCode.set(item.codigo, toMirrorRow(item));
      const pages = Math.ceil(total / perPage);
      const progress = { page, pages, fetched: byCode.size, total };
      if (page % 10 === 0 || page >= pages) this.log.info(progress, 'catalogue sync progress');
      else this.log.debug(progress, 'catalogue sync progress');
      if (answer.items.length < perPage || page >= pages) break;
    }
    if (byCode.size !== total) throw changedDuringSync(total, byCode.size);
    // An empty official catalogue is a broken upstream, never a reason to empty the mirror.
    if (total === 0) throw unavailable('The catalogue answered with no items; mirror kept');
    return [...byCode.values()];
  }
}

const changedDuringSync = (expected: number, got: number) =>
  unavailable(
    `The catalogue changed during the sync (${expected} items, then ${got}); retry later`,
  );
