import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { CatalogoSyncStateEntity } from './entities/catalogo-sync-state.entity.js';
import type { MirrorRow } from './medicamento-mapping.js';

/** Arbitrary constant: the advisory-lock key of the catalogue sync, shared by every instance. */
export const SYNC_LOCK = 724_231_204;
/** Notified in every sync's transaction (so on commit only); see MirrorChangeListener. */
export const MIRROR_CHANGED_CHANNEL = 'catalogo_mirror_changed';
const BATCH = 1000;

const COLUMNS: Array<[keyof MirrorRow, string]> = [
  ['code', 'text'],
  ['nombre', 'text'],
  ['principio_activo', 'text'],
  ['droga', 'text'],
  ['dosis', 'text'],
  ['posologia', 'text'],
  ['presentacion', 'text'],
  ['laboratorio', 'text'],
  ['condicion_expendio', 'text'],
  ['coberturas', 'text[]'],
  ['nombre_norm', 'text'],
  ['principio_activo_norm', 'text'],
];
const names = COLUMNS.map(([c]) => c);
const changed = names.filter((c) => c !== 'code');

// One JSON parameter per batch (jsonb_to_recordset), whatever the batch size. An unchanged row
// is not rewritten (no dead tuple, no index churn): only what changed upstream is touched.
const UPSERT_SQL = `
  INSERT INTO medicamentos AS m (${names.join(', ')})
  SELECT ${names.join(', ')}
  FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
  ON CONFLICT (code) DO UPDATE SET ${changed.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
    updated_at = now()
  WHERE (${changed.map((c) => `m.${c}`).join(', ')})
    IS DISTINCT FROM (${changed.map((c) => `EXCLUDED.${c}`).join(', ')})
  RETURNING (xmax = 0) AS inserted`;

// An anti-join, not `code <> ALL($1)`, which would compare every row with every code.
const DELETE_GONE_SQL = `
  DELETE FROM medicamentos m
  WHERE NOT EXISTS (SELECT 1 FROM unnest($1::text[]) AS s(code) WHERE s.code = m.code)`;

export interface ApplyCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

export interface LastSync {
  syncedAt: Date;
  itemCount: number;
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
  async replaceAll(rows: MirrorRow[]): Promise<ApplyCounts> {
    const qr = this.db.createQueryRunner();
    await qr.connect();
    try {
      await qr.startTransaction();
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
      await qr.query(
        `INSERT INTO catalogo_sync_state (id, synced_at, item_count) VALUES (1, now(), $1)
         ON CONFLICT (id) DO UPDATE SET synced_at = EXCLUDED.synced_at, item_count = EXCLUDED.item_count`,
        [rows.length],
      );
      // Every instance, and this one, drops what it derived from the old mirror.
      await qr.query('SELECT pg_notify($1, $2)', [MIRROR_CHANGED_CHANNEL, '']);
      await qr.commitTransaction();
      return counts;
    } catch (err) {
      if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await qr.release();
    }
  }

  /** The last successful sync by any instance. */
  async lastSync(): Promise<LastSync | undefined> {
    const state = await this.db.getRepository(CatalogoSyncStateEntity).findOneBy({ id: 1 });
    return state ? { syncedAt: state.synced_at, itemCount: state.item_count } : undefined;
  }

  /**
   * The cross-instance sync lock, or undefined when another instance holds it. A session lock
   * on a connection of its own, outside the pool: it must last the whole sync (upstream
   * paging included) without pinning one of the pool's connections for that long. A crash
   * closes the connection and frees the lock.
   */
  async tryLock(): Promise<SyncLock | undefined> {
    const url = (this.db.options as { url?: string }).url;
    const client = new pg.Client({ connectionString: url, application_name: 'catalogo-sync' });
    // A dropped connection must not crash the process (pg emits 'error'); the sync's own
    // queries go through the pool and fail, or succeed, on their own.
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
