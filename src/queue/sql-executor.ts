import type { DataSource, EntityManager } from 'typeorm';

/** The executor shape pg-boss accepts instead of its own pool (constructor and `send` option `db`). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

// pg-boss sends multi-statement scripts without parameters: those must use the simple
// protocol, which `pg` picks only when no values array is given.
const params = (values?: unknown[]) => (values && values.length > 0 ? values : undefined);

/** An executor that can wait for the statements it has under way. */
export interface DrainableExecutor extends SqlExecutor {
  /**
   * Resolves once every statement started so far has settled. pg-boss does not await the write
   * of a worked job's outcome (complete/fail), and its graceful stop returns when the handler
   * has returned, so a shutdown drains this before the pool closes.
   */
  drain(): Promise<void>;
}

/** Runs pg-boss's SQL on the application's pool, so the queue needs no connections of its own. */
export function poolExecutor(db: DataSource): DrainableExecutor {
  const underWay = new Set<Promise<unknown>>();
  const execute = async (text: string, values?: unknown[]) => {
    const runner = db.createQueryRunner();
    try {
      const result = await runner.query(text, params(values), true);
      return { rows: (result.records ?? []) as unknown[] };
    } finally {
      await runner.release();
    }
  };
  return {
    executeSql(text, values) {
      const run = execute(text, values);
      underWay.add(run);
      // The caller handles `run`'s outcome; this branch only forgets it.
      run.finally(() => underWay.delete(run)).catch(() => undefined);
      return run;
    },
    async drain() {
      await Promise.allSettled([...underWay]);
    },
  };
}

/** Runs pg-boss's SQL inside the caller's transaction: the job commits or rolls back with it. */
export function transactionExecutor(manager: EntityManager): SqlExecutor {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive)
    throw new Error('transactionExecutor needs an active transaction');
  return {
    async executeSql(text, values) {
      const result = await runner.query(text, params(values), true);
      return { rows: (result.records ?? []) as unknown[] };
    },
  };
}
