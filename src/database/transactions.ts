import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';

/**
 * One way to write several rows (and enqueue jobs) atomically: `run()` opens a transaction, and
 * every repository or job enqueue that asks for `manager` while it runs joins it — no manager
 * is passed down through the services. Outside `run()`, `manager` is the pool's.
 *
 *   await this.transactions.run(async () => {
 *     await this.recetas.markCancelled(id);          // uses transactions.manager
 *     await this.queue.enqueue(ANULACION_JOB, data);  // joins the same transaction
 *   });
 */
@Injectable()
export class Transactions {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Runs `work` in a transaction; a nested call joins the outer one. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.db.transaction((tx) => this.current.run(tx, work));
  }

  /** The current transaction's manager, or the pool's outside one. */
  get manager(): EntityManager {
    return this.current.getStore() ?? this.db.manager;
  }

  /** Whether the caller runs inside `run()`. */
  get active(): boolean {
    return this.current.getStore() !== undefined;
  }

  /** An entity's repository on the current manager. */
  repository<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.manager.getRepository(entity);
  }
}
