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
import { currentSignal } from '../common/http/request-scope.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';

/** PostgreSQL's deadlock_detected, from the driver or wrapped by TypeORM. */
const isDeadlock = (err: unknown): boolean => {
  const e = err as { code?: string; driverError?: { code?: string } };
  return (e?.code ?? e?.driverError?.code) === '40P01';
};
/** Distinct texts `prepared` names at most (each stays prepared on every connection). */
export const PREPARED_TEXTS_MAX = 64;

/** PostgreSQL refusing a named statement: it exists already (42P05), or not (26000). */
const NAMED_STATEMENT_REFUSED = new Set(['42P05', '26000']);

/** What `prepared` needs of a pg client or pool. */
interface Queryable {
  query<T>(q: { name?: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}

/**
 * One way to write several rows (and enqueue jobs) atomically: `run()` opens a transaction, and
 * every repository or job enqueue that asks for `manager` while it runs joins it — no manager
 * is passed down through the services. Outside `run()`, `manager` is the pool's.
 *
 *   await this.transactions.runRetryingDeadlock(async () => {
 *     await this.recetas.marcarAnulada(id, motivo, 'PENDING'); // uses transactions.manager
 *     await this.queue.enqueue(MinisterioDeliveryJob, { id_transaccion: id, attempt: 1,
 *       kind: 'anulacion' });                                  // joins the same transaction
 *   });
 *
 * (recetas/anulacion/anulacion.service.ts does this.)
 */
@Injectable()
export class Transactions {
  private readonly current = new AsyncLocalStorage<EntityManager>();
  /** The replica's connection while `onReplica` runs (never inside a transaction). */
  private readonly replica = new AsyncLocalStorage<QueryRunner>();
  /** The prepared statements' names by their text (the same on every connection of the pool). */
  private readonly preparedNames = new Map<string, string>();
  /** Whether `prepared` names its statements: until a pooler between loses a name. */
  private namedStatements = true;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Optional() @Inject(ROOT_LOGGER) private readonly log?: Logger,
  ) {}

  /** Whether a streaming replica is configured (DATABASE_READ_URL). */
  get hasReplica(): boolean {
    return this.db.driver.isReplicated;
  }

  /**
   * Runs `work` with its reads on the streaming replica (DATABASE_READ_URL): only reads that
   * tolerate the replica's lag, and only where a miss is then asked of the primary by the
   * caller (a client must never see its own write as missing). Without a replica, or inside a
   * transaction (whose reads must see its writes), `work` runs as usual on the primary. A
   * replica that cannot be reached is not an outage: `work` runs again on the primary.
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
   * Runs `work` in a transaction; a nested call joins the outer one. With `retryOnDeadlock`,
   * a transaction a deadlock aborted (nothing of it kept) is run once more: only for work that
   * touches nothing but this database (no call out), like a dispensation's — a month's
   * partitions being attached take locks the writes wait on (database/particiones/).
   */
  /** `run` for work touching nothing but this database: run once more after a deadlock. */
  runRetryingDeadlock<T>(work: () => Promise<T>): Promise<T> {
    return this.run(work, { retryOnDeadlock: true });
  }

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

  /** Whether the caller runs inside `run()`. */
  get active(): boolean {
    return this.current.getStore() !== undefined;
  }

  /**
   * Runs a hot path's fixed SQL as a named prepared statement on the current connection (the
   * transaction's, or one of the pool's): PostgreSQL parses and plans it once per connection
   * instead of on every call, a large part of a registration statement's time (BENCHMARKS.md,
   * "What each optimisation bought"). For text from a fixed set, every value a placeholder, whose
   * plan does not depend on the values (a generic plan is fine): not the listing, whose planner
   * must see the watermark. Beyond PREPARED_TEXTS_MAX distinct texts, a text runs unnamed.
   * Errors are the driver's own (`code`, `constraint`, `detail`), not TypeORM's
   * QueryFailedError.
   */
  async prepared<T>(sql: string, values: unknown[]): Promise<T[]> {
    try {
      return await this.preparedOnce<T>(sql, values);
    } catch (err) {
      // Outside a transaction the statement is the whole unit of work: a deadlock's victim
      // wrote nothing, and running it again is safe (a month's partitions being attached
      // takes locks the hot paths' writes wait on: database/particiones/particiones.ts).
      if (!isDeadlock(err) || this.current.getStore()) throw err;
      return this.preparedOnce<T>(sql, values);
    }
  }

  private async preparedOnce<T>(sql: string, values: unknown[]): Promise<T[]> {
    const tx = this.current.getStore();
    const onReplica = this.replica.getStore();
    if (tx) return this.preparedOn<T>((await tx.queryRunner!.connect()) as Queryable, sql, values);
    if (onReplica) return this.preparedOn<T>((await onReplica.connect()) as Queryable, sql, values);
    // A connection of its own for the statement (as the pool's query() takes one), so that a
    // request that stops cancels it.
    const pool = (this.db.driver as unknown as { master: pg.Pool }).master;
    const client = await pool.connect();
    // As pool.query() does: a connection lost while it is ours is an error event the client
    // emits (unheard, it would end the process), and the client is then not given back.
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
      // A pooler between (PgBouncer in transaction mode) loses or mixes up named statements:
      // from then on every text runs unnamed. Outside a transaction the refused statement
      // (never executed) is sent again at once; inside one the transaction is aborted already.
      if (!NAMED_STATEMENT_REFUSED.has((err as { code?: string }).code ?? '')) throw err;
      this.namedStatements = false;
      if (tx) throw err;
      return (await target.query<T>({ text: sql, values })).rows;
    }
  }

  /** The text's name, or undefined beyond PREPARED_TEXTS_MAX texts. */
  private nameOf(sql: string): string | undefined {
    const known = this.preparedNames.get(sql);
    if (known || this.preparedNames.size >= PREPARED_TEXTS_MAX) return known;
    const name = `hot_${this.preparedNames.size + 1}`;
    this.preparedNames.set(sql, name);
    return name;
  }

  /** An entity's repository on the current manager. */
  repository<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.manager.getRepository(entity);
  }
}

/**
 * Runs a transaction's work so that the request it serves can stop it (SPEC 13): the statement
 * under way is cancelled when the request's signal aborts, and work that ends after it aborted
 * throws instead of returning, so the transaction rolls back instead of committing. Outside a
 * request (jobs, the CLI) nothing changes.
 */
async function stoppable<T>(tx: EntityManager, work: () => Promise<T>): Promise<T> {
  const client = (tx.queryRunner as unknown as { databaseConnection?: pg.ClientBase })
    .databaseConnection;
  const result = client ? await whileRequestRuns(client, work) : await work();
  if (currentSignal()?.aborted) throw requestStopped();
  return result;
}

/** `run()` with the request's signal cancelling `client`'s statement under way if it aborts. */
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

/**
 * PostgreSQL's cancel request for whatever `client`'s backend is running (none: nothing
 * happens), on a connection of its own that the server closes at once; the statement then fails
 * with query_canceled. Best effort: a cancel that cannot be delivered leaves the statement to
 * its statement_timeout.
 */
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

/** What a request that stopped (its time was up, or its client left) throws from its work. */
const requestStopped = (): Error => new Error('the request stopped: its work was rolled back');

/**
 * The replica's connection failing (refused, reset, shut down, in recovery and unable to
 * serve), as opposed to a query's own error: only then does a read go back to the primary.
 */
function isConnectionFailure(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(
      e.code ?? '',
    ) ||
    // 57P01..57P03: admin shutdown, crash shutdown, cannot connect now; 08xxx: connection class.
    /^(57P0[1-3]|08)/.test(e.code ?? '') ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(e.message ?? '')
  );
}
