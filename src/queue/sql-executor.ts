import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** The executor shape pg-boss accepts instead of its own pool (constructor and `send` option `db`). */
interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** An executor whose `drain()` waits for the statements it has under way. */
export interface DrainableExecutor extends SqlExecutor {
  drain(): Promise<void>;
}

async function execute(runner: QueryRunner, text: string, values?: unknown[]) {
  // pg-boss sends multi-statement scripts without parameters: those must use the simple
  // protocol, which `pg` picks only when no values array is given.
  const result = await runner.query(text, values?.length ? values : undefined, true);
  return { rows: (result.records ?? []) as unknown[] };
}

/**
 * Runs pg-boss's SQL on the application's pool. pg-boss does not await a worked job's outcome
 * write, and its graceful stop returns when the handler has: a shutdown drains before the pool
 * closes.
 */
export function poolExecutor(db: DataSource): DrainableExecutor {
  const underWay = new Set<Promise<unknown>>();
  return {
    executeSql(text, values) {
      const runner = db.createQueryRunner();
      const run = execute(runner, text, values).finally(() => runner.release());
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
  return { executeSql: (text, values) => execute(runner, text, values) };
}
