import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { assertNames } from '../common/naming.js';
import type { CoreConfig } from './core-config.js';
import type { SecretSetting } from './production-secret.js';
import { settingNames } from './setting-docs.js';

export { ConfigError } from './config-error.js';

/**
 * A module's own settings (`<module>.settings.ts`, each variable `@Documented`): the variables it
 * reads and how they become the typed object it injects with `@InjectSettings(slice)`. Every
 * slice's settings are validated together at start.
 */
export interface SettingsSlice<T> {
  readonly name: string;
  /** The heading of its settings in `.env.example` (default: the name). */
  readonly title?: string;
  readonly variables: new () => object;
  /** Throws ConfigError for a rule that spans variables. */
  readonly build: (env: Record<string, unknown>, core: CoreConfig) => T;
  /** Logged at start. */
  warnings?(settings: T, core: CoreConfig): string[];
  /**
   * Its server secrets (must not throw): loadConfig judges every slice's together
   * (production-secret.ts: strong, and distinct from each other).
   */
  readonly secrets?: (env: Record<string, unknown>, core: CoreConfig) => SecretSetting[];
  readonly token: symbol;
}

export type SettingsOf<S> = S extends SettingsSlice<infer T> ? T : never;

export function defineSettings<V extends object, T>(
  name: string,
  variables: new () => V,
  build: (env: V, core: CoreConfig) => T,
  options: {
    warnings?: (settings: T, core: CoreConfig) => string[];
    title?: string;
    secrets?: (env: V, core: CoreConfig) => SecretSetting[];
  } = {},
): SettingsSlice<T> {
  assertNames('setting', settingNames(variables), `defineSettings(${name})`);
  return {
    name,
    ...options,
    variables,
    build: build as SettingsSlice<T>['build'],
    secrets: options.secrets as SettingsSlice<T>['secrets'],
    token: Symbol(`settings:${name}`),
  };
}

/** The environment as given; an empty value is "not set" (as in .env.example). */
export function givenEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[1] !== undefined && e[1].trim() !== '',
    ),
  );
}

/** The converted values of `env` for a variables class, and its problems. */
export function validateVariables<V extends object>(
  variables: new () => V,
  env: Record<string, string>,
): { values: V; problems: string[] } {
  const values = plainToInstance(variables, env, { enableImplicitConversion: false });
  const errors = validateSync(values, { whitelist: false, forbidUnknownValues: false });
  return { values, problems: describe(errors) };
}

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((msg) =>
      // class-validator prefixes the property name already; make the setting explicit.
      msg.startsWith(e.property)
        ? `${e.property}: ${msg.slice(e.property.length + 1)}`
        : `${e.property}: ${msg}`,
    ),
  );
}
