import type { ClientSettings } from '../../../src/auth/api-clients.service.js';
import { createClient, TestClient } from '../../support/clients.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { LogGuard } from './log-guard.js';

/** A test app whose logs the guard will scan. */
export async function startWatchedApp(
  guard: LogGuard,
  name: string,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const t = await startTestApp(env);
  guard.watch(name, () => t.rawLogs());
  return t;
}

/** A client with every scope and a rate limit no test reaches; its secret is watched for. */
export async function watchedClient(
  t: TestApp,
  guard: LogGuard,
  settings: ClientSettings = {},
): Promise<TestClient> {
  const c = await createClient(t, { rateLimitPerMinute: 100_000, ...settings });
  guard.secret(c.secret);
  return c;
}
