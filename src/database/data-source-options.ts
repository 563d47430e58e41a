import type { DataSourceOptions, MigrationInterface } from 'typeorm';

/** The connection settings shared by the service, the migration runner and the CLI. */
export function dataSourceOptions(
  url: string,
  poolSize: number,
  statementTimeoutMs = 30_000,
  migrations: readonly (new () => MigrationInterface)[] = [],
  readUrl?: string,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    // Queries go to the primary unless the code asks for the replica (Transactions.onReplica).
    ...(readUrl
      ? { replication: { defaultMode: 'master', master: { url }, slaves: [{ url: readUrl }] } }
      : {}),
    synchronize: false,
    migrationsRun: false,
    migrations: [...migrations],
    migrationsTableName: 'schema_migrations',
    extra: {
      max: poolSize,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      // One name per process: pg_stat_activity tells a worker's sessions from its siblings'.
      application_name: `prescription-registry ${process.pid}`,
      // A statement that outlives the request that asked for it is abandoned on both sides.
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + 1000,
      keepAlive: true,
    },
  };
}
