import { Inject } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { assertNames } from '../common/naming.js';
import type { CoreConfig } from './core-config.js';
import type { SecretSetting } from './production-secret.js';
import { settingNames } from './setting-docs.js';

export { ConfigError } from './config-error.js';

/**
 * A module's own settings: the environment variables it reads (a class-validator class, see
 * setting-decorators.ts), and how they become the typed, defaulted object the module injects
 * with `@InjectSettings(slice)`. Declared in the module's `<module>.settings.ts` (each variable
 * `@Documented`, see setting-docs.ts); the module's slice lists it, and every slice's settings
 * are validated together at start.
 */
export interface SettingsSlice<T> {
  readonly name: string;
  /** The heading of its settings in `.env.example` (default: the name). */
  readonly title?: string;
  readonly variables: new () => object;
  /** Builds the module's settings; throws ConfigError for a rule that spans variables. */
  readonly build: (env: Record<string, unknown>, core: CoreConfig) => T;
  /** Things an operator should know about these settings, logged at start. */
  warnings?(settings: T, core: CoreConfig): string[];
  /**
   * The server secrets among its variables, as the module keys with them: loadConfig judges
   * every slice's together (production-secret.ts: strong, and distinct from each other).
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
    /** Its secrets (must not throw: a value it cannot read is the build's to refuse). */
    secrets?: (env: V, core: CoreConfig) => SecretSetting[];
  } = {},
): SettingsSlice<T> {
  assertNames('setting', settingNames(variables), `defineSettings(${name})`);
  return {
    name,
    title: options.title,
    variables,
    build: build as (env: Record<string, unknown>, core: CoreConfig) => T,
    warnings: options.warnings,
    secrets: options.secrets as SettingsSlice<T>['secrets'],
    token: Symbol(`settings:${name}`),
  };
}

/** Injects a module's validated settings. */
export const InjectSettings = (slice: SettingsSlice<unknown>) => Inject(slice.token);

/** The environment as given, with empty values meaning "not set" (as in .env.example). */
export function givenEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[1] !== undefined && e[1].trim() !== '',
    ),
  );
}

/** Validates `env` against a variables class; returns the converted values and the problems. */
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
