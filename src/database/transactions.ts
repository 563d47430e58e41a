import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';
import {
  DataSource,
  EntityManager,
  EntityTarget,
  ObjectLiteral,
  QueryRunner,
  Repository,
} from 'typeorm';
import pg from 'pg';
import { isConnectionFailure } from '../common/database-errors.js';
import { currentSignal } from '../common/http/request-scope.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';

const isDeadlock = (err: unknown): boolean => {
  const e = err as { code?: string; driverError?: { code?: string } };
  return (e?.code ?? e?.driverError?.code) === '40P01';
};
/** Distinct texts `prepared` names at most (each stays prepared on every connection). */
export const PREPARED_TEXTS_MAX = 64;
/** PostgreSQL refusing a named statement: it exists already (42P05), or not (26000). */
const NAMED_STATEMENT_REFUSED = new Set(['42P05', '26000']);

interface Queryable {
  query<T>(q: { name?: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}

/**
 * Atomic writes without passing a manager down: every repository or job enqueue that asks for
 * `manager` while `run()` runs joins its transaction; outside `run()`, `manager` is the pool's.
 */
@Injectable()
export class Transactions {
  private readonly current = new AsyncLocalStorage<EntityManager>();
  /** The replica's connection while `onReplica` runs (never inside a transaction). */
  private readonly replica = new AsyncLocalStorage<QueryRunner>();
  /** Statement names by text (the same on every connection of the pool). */
  private readonly preparedNames = new Map<string, string>();
  /** False once a pooler between (PgBouncer in transaction mode) has lost a name. */
  private namedStatements = true;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Optional() @Inject(ROOT_LOGGER) private readonly log?: Logger,
  ) {}

  get hasReplica(): boolean {
    return this.db.driver.isReplicated;
  }

  /**
   * Runs `work` with its reads on the replica (DATABASE_READ_URL), for reads that tolerate its
   * lag and whose miss the caller asks of the primary. Inside a transaction, or without a
   * replica, on the primary; an unreachable replica is not an outage: `work` runs on the primary.
   */
  async onReplica<T>(work: () => Promise<T>): Promise<T> {
    if (!this.hasReplica || this.current.getStore() || this.replica.getStore()) return work();
    const runner = this.db.createQueryRunner('slave');
    try {
      return await this.replica.run(runner, work);
    } catch (err) {
      if (!isConnectionFailure(err)) throw err;
      this.log?.warn({ err }, 'the read replica cannot be reached: reading from the primary');
      return work();
    } finally {
      await runner.release();
    }
  }

  /**
   * `run` for work touching nothing but this database (no call out): a transaction a deadlock
   * aborted is run once more (a month's partitions being attached take locks writes wait on).
   */
  runRetryingDeadlock<T>(work: () => Promise<T>): Promise<T> {
    return this.run(work, { retryOnDeadlock: true });
  }

  /** Runs `work` in a transaction; a nested call joins the outer one. */
  async run<T>(work: () => Promise<T>, options: { retryOnDeadlock?: boolean } = {}): Promise<T> {
    if (this.current.getStore()) return work();
    const once = () => this.db.transaction((tx) => this.current.run(tx, () => stoppable(tx, work)));
    try {
      return await once();
    } catch (err) {
      if (!options.retryOnDeadlock || !isDeadlock(err) || currentSignal()?.aborted) throw err;
      return once();
    }
  }

  /** The current transaction's manager, or the pool's outside one. */
  get manager(): EntityManager {
    return this.current.getStore() ?? this.replica.getStore()?.manager ?? this.db.manager;
  }

  get active(): boolean {
    return this.current.getStore() !== undefined;
  }

  /**
   * Runs a hot path's fixed SQL as a named prepared statement on the current connection, parsed
   * and planned once per connection (BENCHMARKS.md). Only for text whose plan does not depend on
   * the values (not the listing, whose planner must see the watermark). Errors are the driver's
   * own (`code`, `constraint`, `detail`), not TypeORM's QueryFailedError.
   */
  async prepared<T>(sql: string, values: unknown[]): Promise<T[]> {
    try {
      return await this.preparedOnce<T>(sql, values);
    } catch (err) {
      // Outside a transaction a deadlock's victim wrote nothing: running it again is safe.
      if (!isDeadlock(err) || this.current.getStore()) throw err;
      return this.preparedOnce<T>(sql, values);
    }
  }

  private async preparedOnce<T>(sql: string, values: unknown[]): Promise<T[]> {
    const runner = this.current.getStore()?.queryRunner ?? this.replica.getStore();
    if (runner) return this.preparedOn<T>((await runner.connect()) as Queryable, sql, values);
    // A connection of its own (as pool.query() takes one), so that a request that stops cancels it.
    const pool = (this.db.driver as unknown as { master: pg.Pool }).master;
    const client = await pool.connect();
    // As pool.query() does: a lost connection's error event is heard (unheard, it would end
    // the process), and the client is then not given back.
    let lost: Error | undefined;
    const onError = (err: Error) => (lost = err);
    client.on('error', onError);
    try {
      return await whileRequestRuns(client, () => this.preparedOn<T>(client, sql, values));
    } catch (err) {
      if (isConnectionFailure(err)) lost ??= err as Error;
      throw err;
    } finally {
      client.off('error', onError);
      client.release(lost);
    }
  }

  private async preparedOn<T>(target: Queryable, sql: string, values: unknown[]): Promise<T[]> {
    const tx = this.current.getStore();
    const name = this.namedStatements ? this.nameOf(sql) : undefined;
    if (name === undefined) return (await target.query<T>({ text: sql, values })).rows;
    try {
      return (await target.query<T>({ name, text: sql, values })).rows;
    } catch (err) {
      // A pooler between loses named statements: from then on every text runs unnamed. The
      // refused statement never ran: sent again, unless its transaction is aborted already.
      if (!NAMED_STATEMENT_REFUSED.has((err as { code?: string }).code ?? '')) throw err;
      this.namedStatements = false;
      if (tx) throw err;
      return (await target.query<T>({ text: sql, values })).rows;
    }
  }

  private nameOf(sql: string): string | undefined {
    const known = this.preparedNames.get(sql);
    if (known || this.preparedNames.size >= PREPARED_TEXTS_MAX) return known;
    const name = `hot_${this.preparedNames.size + 1}`;
    this.preparedNames.set(sql, name);
    return name;
  }

  repository<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.manager.getRepository(entity);
  }
}

/**
 * A transaction's work that its request can stop (SPEC 13): the statement under way is
 * cancelled when the request's signal aborts, and the transaction then rolls back.
 */
async function stoppable<T>(tx: EntityManager, work: () => Promise<T>): Promise<T> {
  const client = (tx.queryRunner as unknown as { databaseConnection?: pg.ClientBase })
    .databaseConnection;
  const result = client ? await whileRequestRuns(client, work) : await work();
  if (currentSignal()?.aborted) throw requestStopped();
  return result;
}

async function whileRequestRuns<T>(client: pg.ClientBase, run: () => Promise<T>): Promise<T> {
  const signal = currentSignal();
  if (!signal) return run();
  if (signal.aborted) throw requestStopped();
  const cancel = () => cancelStatement(client);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await run();
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/** PostgreSQL's cancel request for `client`'s statement; best effort (else statement_timeout). */
function cancelStatement(client: pg.ClientBase): void {
  const { processID, secretKey, host, port } = client as pg.ClientBase & {
    processID: number | null;
    secretKey: number | null;
    host: string;
    port: number;
  };
  if (processID === null || secretKey === null) return;
  const con = new (pg as unknown as { Connection: new () => CancelConnection }).Connection();
  con.on('error', () => undefined);
  con.once('connect', () => con.cancel(processID, secretKey));
  con.connect(port, host);
}

interface CancelConnection {
  on(event: 'error', listener: () => void): void;
  once(event: 'connect', listener: () => void): void;
  connect(port: number, host: string): void;
  cancel(processID: number, secretKey: number): void;
}

const requestStopped = (): Error => new Error('the request stopped: its work was rolled back');
