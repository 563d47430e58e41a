import { ConfigError } from '../../src/config/app-config.js';
import { loadAppConfig } from '../../src/slices.js';

/** The problems the configuration names for `env`, one line each; none when it loads. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadAppConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}
