/**
 * The run's two logins, as production has them (SPEC 11.1): tests administer their databases as
 * TEST_DATABASE_URL's role, which is also the migration role (DATABASE_MIGRATION_URL); the
 * service runs as TEST_RUNTIME_ROLE, which the global setup created for the run and which owns
 * nothing. Every way a test starts the service (startTestApp, startServiceProcess, runCli) goes
 * through `withRoles`.
 */
export function runtimeUrlOf(adminUrl: string): string {
  const role = process.env.TEST_RUNTIME_ROLE;
  const password = process.env.TEST_RUNTIME_PASSWORD;
  if (!role || !password)
    throw new Error('TEST_RUNTIME_ROLE is not set: run through jest (global setup)');
  const u = new URL(adminUrl);
  u.username = role;
  u.password = password;
  return u.toString();
}

/**
 * The database settings a started service gets: DATABASE_URL (the run's database unless `env`
 * names another, as an administrator's URL) becomes the migration URL, and the service logs in
 * as the runtime role. An `env` naming DATABASE_MIGRATION_URL itself is left as it is; one
 * setting it to '' runs with one role (DATABASE_URL's, owning everything).
 */
export function withRoles(env: Record<string, string | undefined>): Record<string, string> {
  const out = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  if (out.DATABASE_MIGRATION_URL === '') {
    delete out.DATABASE_MIGRATION_URL;
    return out;
  }
  if (out.DATABASE_MIGRATION_URL !== undefined || !out.DATABASE_URL) return out;
  return {
    ...out,
    DATABASE_MIGRATION_URL: out.DATABASE_URL,
    DATABASE_URL: runtimeUrlOf(out.DATABASE_URL),
  };
}
