import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { CatalogoSyncStateEntity } from './entities/catalogo-sync-state.entity.js';
import type { MirrorRow } from './medicamento-mapping.js';
import { DELETE_GONE_SQL, UPSERT_SQL } from './mirror-sync.sql.js';

/** Arbitrary constant: the advisory-lock key of the catalogue sync, shared by every instance. */
export const SYNC_LOCK = 724_231_204;
/** Notified in every sync's transaction (so on commit only); see MirrorChangeListener. */
export const MIRROR_CHANGED_CHANNEL = 'catalogo_mirror_changed';
const BATCH = 1000;

export interface ApplyCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

export interface SyncLock {
  release(): Promise<void>;
}

/** The write side of the catalogue mirror, used only by the sync. */
@Injectable()
export class MirrorSyncRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Replaces the mirror's content with `rows` (codes unique) in one transaction: readers keep
   * seeing the previous mirror until the commit, and a failure anywhere leaves it untouched.
   */
  replaceAll(rows: MirrorRow[]): Promise<ApplyCounts> {
    return this.db.transaction(async (manager) => {
      const qr = manager.queryRunner as QueryRunner;
      const counts: ApplyCounts = { inserted: 0, updated: 0, deleted: 0 };
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = JSON.stringify(rows.slice(i, i + BATCH));
        const res = await qr.query(UPSERT_SQL, [batch], true);
        for (const r of res.records as Array<{ inserted: boolean }>) {
          if (r.inserted) counts.inserted++;
          else counts.updated++;
        }
      }
      const gone = await qr.query(DELETE_GONE_SQL, [rows.map((r) => r.code)], true);
      counts.deleted = gone.affected ?? 0;
      await manager
        .getRepository(CatalogoSyncStateEntity)
        .upsert({ id: 1, synced_at: () => 'now()', item_count: rows.length }, ['id']);
      // Every instance, and this one, drops what it derived from the old mirror.
      await qr.query('SELECT pg_notify($1, $2)', [MIRROR_CHANGED_CHANNEL, '']);
      return counts;
    });
  }

  /** The last successful sync by any instance. */
  async lastSync(): Promise<{ syncedAt: Date; itemCount: number } | undefined> {
    const state = await this.db.getRepository(CatalogoSyncStateEntity).findOneBy({ id: 1 });
    return state ? { syncedAt: state.synced_at, itemCount: state.item_count } : undefined;
  }

  /**
   * The cross-instance sync lock, or undefined when another instance holds it: a session lock on
   * a connection outside the pool, held the whole sync (a crash closes it and frees the lock).
   */
  async tryLock(): Promise<SyncLock | undefined> {
    const url = (this.db.options as { url?: string }).url;
    const client = new pg.Client({ connectionString: url, application_name: 'catalogo-sync' });
    // A dropped connection must not crash the process; the sync's queries go through the pool.
    client.on('error', () => undefined);
    await client.connect();
    try {
      const res = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        SYNC_LOCK,
      ]);
      if (!res.rows[0].ok) {
        await client.end();
        return undefined;
      }
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return {
      async release() {
        await client.query('SELECT pg_advisory_unlock($1)', [SYNC_LOCK]).catch(() => undefined);
        await client.end().catch(() => undefined);
      },
    };
  }
}
