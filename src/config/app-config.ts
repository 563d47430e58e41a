import { buildCoreConfig, CoreConfig, coreWarnings } from './core-config.js';
import { CoreVariables } from './core.variables.js';
import { ConfigError } from './config-error.js';
import { secretProblems } from './production-secret.js';
import { givenEnv, SettingsSlice, validateVariables } from './settings.js';

export { ConfigError } from './config-error.js';
export type { CoreConfig, LogLevel } from './core-config.js';
export { migrationUrl } from './core-config.js';

/** The core settings, and each module's own (read with `settings(slice)`). */
export interface AppConfig extends CoreConfig {
  settings<T>(slice: SettingsSlice<T>): T;
  readonly slices: readonly SettingsSlice<unknown>[];
  /** Logged as warnings at start. */
  readonly warnings: readonly string[];
}

interface Validated {
  slice: SettingsSlice<unknown>;
  values: Record<string, unknown>;
}

/**
 * Validates the environment once, the core variables and every module's, or throws ConfigError
 * naming each bad setting. Nothing else reads `process.env`.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  slices: readonly SettingsSlice<unknown>[],
): AppConfig {
  const given = givenEnv(env);
  const core = validateVariables(CoreVariables, given);
  const problems = [...core.problems];
  const validated = slices.map((slice) => {
    const { values, problems: sliceProblems } = validateVariables(slice.variables, given);
    problems.push(...sliceProblems);
    return { slice, values: values as Record<string, unknown> };
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return assemble(buildCoreConfig(core.values), validated);
}

function assemble(core: CoreConfig, validated: Validated[]): AppConfig {
  const built = new Map<SettingsSlice<unknown>, unknown>();
  const problems: string[] = [];
  const warnings: string[] = coreWarnings(core);
  for (const { slice, values } of validated) {
    try {
      const settings = slice.build(values, core);
      built.set(slice, settings);
      warnings.push(...(slice.warnings?.(settings, core) ?? []));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
    }
  }
  // Every slice's secrets at once: each must be strong, and no two the same (SPEC 11.9).
  const secrets = validated.flatMap(({ slice, values }) => slice.secrets?.(values, core) ?? []);
  problems.push(...secretProblems(secrets, core.nodeEnv));
  if (problems.length > 0) throw new ConfigError(problems);
  const config: AppConfig = {
    ...core,
    slices: validated.map((v) => v.slice),
    warnings,
    settings<T>(slice: SettingsSlice<T>): T {
      if (!built.has(slice)) throw new Error(`settings ${slice.name} were not loaded`);
      return built.get(slice) as T;
    },
  };
  // Kept out of the modules' sight, for rebuilding over a changed core.
  origins.set(config, { core, validated });
  return config;
}

const origins = new WeakMap<AppConfig, { core: CoreConfig; validated: Validated[] }>();

/** The same settings over a changed core (the bootstrap filling in what it started). */
function withCore(config: AppConfig, change: (core: CoreConfig) => CoreConfig): AppConfig {
  const origin = origins.get(config);
  if (!origin) throw new Error('not a configuration made by loadConfig');
  return assemble(change(origin.core), origin.validated);
}

/** Any external system left unset is served by the in-process sandbox (outside production). */
export function needsSandbox(config: CoreConfig): boolean {
  const u = config.upstreams;
  return !u.refepsBaseUrl || !u.renaperBaseUrl || !u.catalogoBaseUrl || !u.ministerioBaseUrl;
}

export const withSandbox = (config: AppConfig, sandboxUrl: string): AppConfig =>
  withCore(config, (core) => {
    const u = core.upstreams;
    return {
      ...core,
      sandbox: { ...core.sandbox, url: sandboxUrl },
      upstreams: {
        ...u,
        refepsBaseUrl: u.refepsBaseUrl ?? sandboxUrl,
        renaperBaseUrl: u.renaperBaseUrl ?? sandboxUrl,
        catalogoBaseUrl: u.catalogoBaseUrl ?? sandboxUrl,
        ministerioBaseUrl: u.ministerioBaseUrl ?? sandboxUrl,
      },
    };
  });

/**
 * The database settings changed: the embedded server's two logins (the service's and its
 * superuser's, as production has them, SPEC 11.1), or no migration credentials once migrated.
 */
export const withDatabase = (
  config: AppConfig,
  database: Partial<CoreConfig['database']>,
): AppConfig =>
  withCore(config, (core) => ({ ...core, database: { ...core.database, ...database } }));
