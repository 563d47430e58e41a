import pino from 'pino';
import { execFile } from 'node:child_process';
import { DataSource, EntityManager } from 'typeorm';
import { AuditSealer } from '../../src/auditoria/audit-sealer.js';
import { AuditVerifier, type VerifyReport } from '../../src/auditoria/audit-verifier.js';
import { AuditoriaRepository } from '../../src/auditoria/auditoria.repository.js';
import { AuditoriaService } from '../../src/auditoria/auditoria.service.js';
import { AuditEventEntity } from '../../src/auditoria/entities/audit-event.entity.js';
import { AuditPurgeEntity } from '../../src/auditoria/entities/audit-purge.entity.js';
import { AuditSealEntity } from '../../src/auditoria/entities/audit-seal.entity.js';
import { AuditSealsRepository } from '../../src/auditoria/audit-seals.repository.js';
import { Transactions } from '../../src/database/transactions.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { runMigrations } from '../../src/database/migrate.js';
import { withRoles } from './database-roles.js';

/** The event log's classes on one connection pool, built as the module and the CLI build them. */
export interface AuditHandle {
  ds: DataSource;
  /** Runs work in one transaction; the service's writes inside it join it. */
  transactions: Transactions;
  service: AuditoriaService;
  sellos: AuditSealsRepository;
  sealer: AuditSealer;
  verify(): Promise<VerifyReport>;
  /** The seal covering event `id`, or null. */
  sealOf(id: string): Promise<string | null>;
  /**
   * Seals until every event present is covered. Needs retries on a shared server: a seal only
   * covers transactions below the cluster's oldest running one, and other databases' count.
   */
  sealAll(timeoutMs?: number, maxEvents?: number): Promise<void>;
  /** Seals until event `id` is covered; returns its seal. */
  sealUntilCovered(id: string, timeoutMs?: number): Promise<string>;
}

export interface AuditDatabase {
  url: string;
  /** A new pool on the database (closed by close()). */
  open(): Promise<AuditHandle>;
  /**
   * Runs `sql` (statements separated by `;`, no parameters) as the superuser with every
   * trigger off, as a forger would, in one transaction.
   */
  forge(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A database of its own for an event-log suite (the log's seals and verify see every event of
 * the database, so other suites' writes must not land in it), migrated like the run's.
 */
export async function openAuditDatabase(): Promise<AuditDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set: run through jest (global setup)');
  const poolSize = Number(process.env.TEST_DATABASE_POOL_SIZE ?? '5');
  const admin = new DataSource(dataSourceOptions(base, 1));
  await admin.initialize();
  const u = new URL(base);
  const name = `${u.pathname.slice(1)}_aud_${process.pid}_${Date.now() % 100000}`;
  await admin.query(`CREATE DATABASE ${name}`);
  u.pathname = `/${name}`;
  const url = u.toString();
  await runMigrations(url, MIGRATIONS);
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  const pools: DataSource[] = [];
  const open = async (): Promise<AuditHandle> => {
    const ds = new DataSource({
      ...dataSourceOptions(url, poolSize),
      entities: [AuditEventEntity, AuditSealEntity, AuditPurgeEntity],
    });
    await ds.initialize();
    pools.push(ds);
    const sellos = new AuditSealsRepository(ds);
    const transactions = new Transactions(ds);
    const sealer = new AuditSealer(sellos);
    const sealOf = async (id: string) => {
      const rows: Array<{ id: string }> = await ds.query(
        `SELECT id::text FROM auditoria_sellos WHERE ids @> $1::bigint`,
        [id],
      );
      return rows[0]?.id ?? null;
    };
    const until = async <T>(
      check: () => Promise<T | null>,
      timeoutMs: number,
      maxEvents?: number,
    ): Promise<T> => {
      for (const end = Date.now() + timeoutMs; ;) {
        await sealer.sealNow(maxEvents);
        const done = await check();
        if (done !== null) return done;
        if (Date.now() > end) throw new Error('events still unsealed');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const unsealed = async () => {
      const [{ n }] = await ds.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM auditoria_eventos e
          WHERE NOT EXISTS (SELECT 1 FROM auditoria_sellos s WHERE s.ids @> e.id)`,
      );
      return n === 0 ? true : null;
    };
    return {
      ds,
      transactions,
      service: new AuditoriaService(
        new AuditoriaRepository(transactions),
        pino({ level: 'silent' }),
      ),
      sellos,
      sealer,
      verify: () => new AuditVerifier(sellos).verify(),
      sealOf,
      sealAll: async (timeoutMs = 20_000, maxEvents?: number) => {
        await until(unsealed, timeoutMs, maxEvents);
      },
      sealUntilCovered: (id, timeoutMs = 20_000) => until(() => sealOf(id), timeoutMs),
    };
  };
  const forger = await open();
  return {
    url,
    open,
    forge: (sql) =>
      forger.ds.transaction(async (tx: EntityManager) => {
        await tx.query(`SET LOCAL session_replication_role = replica`);
        await tx.query(sql);
      }),
    async close() {
      for (const ds of pools) await ds.destroy();
      await drop();
      await admin.destroy();
    },
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`node dist/src/cli/main.js …`) on `url`; never rejects. */
export function runCli(
  url: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/src/cli/main.js', ...args],
      {
        env: withRoles({
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          DATABASE_URL: url,
          ...env,
        }),
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
