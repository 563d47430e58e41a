import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { withRoles } from './database-roles.js';

const run = promisify(execFile);

/**
 * Runs the built operator tool (`dist/src/cli/main.js`, what `npm run cli` runs) as its own
 * process on the run's test database, as an operator would beside a running service.
 */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['dist/src/cli/main.js', ...args], {
    env: withRoles({
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      LOG_LEVEL: 'silent',
      ...env,
    }),
  });
}

/** Runs the tool with `--json` and parses the one JSON object it prints. */
export async function cliJson<T = Record<string, unknown>>(
  args: string[],
  env: Record<string, string> = {},
): Promise<T> {
  return JSON.parse((await runCli([...args, '--json'], env)).stdout) as T;
}
