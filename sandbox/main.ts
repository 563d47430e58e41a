/**
 * Runs the sandbox alone: `npm run sandbox` (or `node dist/sandbox/main.js`).
 * SANDBOX_PORT (default 4010), SANDBOX_HOST (default 127.0.0.1), SANDBOX_CATALOG_SIZE (optional:
 * serve that many catalogue items, fixture first, then synthetic ones).
 */
import { startSandbox } from './server.js';

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    port: intFromEnv('SANDBOX_PORT') ?? 4010,
    host: process.env.SANDBOX_HOST || '127.0.0.1',
    catalogSize: intFromEnv('SANDBOX_CATALOG_SIZE'),
  });
  process.stdout.write(`Sandbox listening on ${sandbox.url}\n`);
  const stop = (signal: string) => {
    process.stdout.write(`Sandbox stopping (${signal})\n`);
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Sandbox failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
