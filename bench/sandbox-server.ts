/**
 * The sandbox in a process of its own for the national mix (scenarios/mix.ts), as production
 * has its registries and the ministry apart from the service: quiet (no request log), on a free
 * port, printing `sandbox listening on <url>` for the bench. Env: SANDBOX_CATALOG_SIZE.
 */
import { startSandbox } from '../sandbox/server.js';

const size = Number(process.env.SANDBOX_CATALOG_SIZE ?? '');
const sandbox = await startSandbox({
  port: 0,
  quiet: true,
  ...(Number.isInteger(size) && size > 0 ? { catalogSize: size } : {}),
});
process.stdout.write(`sandbox listening on ${sandbox.url}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
