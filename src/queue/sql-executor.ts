import type { DataSource, EntityManager } from 'typeorm';

/** The executor shape pg-boss accepts instead of its own pool (constructor and `send` option `db`). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

// pg-boss sends multi-statement scripts without parameters: those must use the simple
// protocol, which `pg` picks only when no values array is given.
const params = (values?: unknown[]) => (values && values.length > 0 ? values : undefined);

/** Runs pg-boss's SQL on the application's pool, so the queue needs no connections of its own. */
export function poolExecutor(db: DataSource): SqlExecutor {
  return {
    async executeSql(text, values) {
      const runner = db.createQueryRunner();
      try {
        const result = await runner.query(text, params(values), true);
        return { rows: (result.records ?? []) as unknown[] };
      } finally {
        await runner.release();
      }
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
