import PgBoss from 'pg-boss';

/**
 * Creates or upgrades pg-boss's schema over `url` (the migration role's) and stops: what the
 * service's own pg-boss would do at start, done by a role allowed to create schemas, before
 * the schema is handed to the service's role (see database/runtime-grants.ts).
 */
export async function installQueueSchema(url: string, schema: string): Promise<void> {
  const boss = new PgBoss({
    connectionString: url,
    schema,
    max: 1,
    supervise: false,
    schedule: false,
    application_name: 'prescription-registry-migrate',
  });
  let failure: Error | undefined;
  boss.on('error', (err) => (failure ??= err));
  await boss.start();
  await boss.stop({ graceful: false, close: true, wait: true });
  if (failure) throw failure;
}
