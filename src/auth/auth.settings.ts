import { IsOptional, IsString } from 'class-validator';
import { BoolSetting, IntSetting, OneOfSetting } from '../config/setting-decorators.js';
import { DEVELOPMENT_PEPPER, secretProblem } from '../config/production-secret.js';
import { ConfigError, defineSettings, SettingsOf } from '../config/settings.js';

class AuthVariables {
  /** Key of the secret hashes and of the webhook-secret encryption. */
  @IsOptional() @IsString() API_SECRET_PEPPER?: string;
  @IntSetting(0, 60000) AUTH_CACHE_TTL_MS?: number;
  @OneOfSetting(['memory', 'postgres']) RATE_LIMIT_STORE?: string;
  @IntSetting(1, 1000000) RATE_LIMIT_DEFAULT_PER_MINUTE?: number;
  @IntSetting(1, 100000) AUTH_FAILURES_PER_MINUTE?: number;
  @BoolSetting() DEMO_CLIENT?: boolean;
}

export const authSettings = defineSettings(
  'auth',
  AuthVariables,
  (v, core) => {
    const pepper = v.API_SECRET_PEPPER;
    const problem = secretProblem('API_SECRET_PEPPER', pepper, core.nodeEnv);
    if (problem) throw new ConfigError([problem]);
    return {
      /** Server-side key of the secret hashes; changing it invalidates every issued secret. */
      secretPepper: pepper ?? DEVELOPMENT_PEPPER,
      cacheTtlMs: v.AUTH_CACHE_TTL_MS ?? 5000,
      rateLimitStore: (v.RATE_LIMIT_STORE ?? 'memory') as 'memory' | 'postgres',
      defaultRateLimitPerMinute: v.RATE_LIMIT_DEFAULT_PER_MINUTE ?? 600,
      /** Failed authentications per address and minute before 429. */
      failuresPerMinute: v.AUTH_FAILURES_PER_MINUTE ?? 30,
      /** Ensure and print a demo client at start (default: with the embedded database). */
      demoClient: v.DEMO_CLIENT ?? core.database.isEmbedded,
    };
  },
  {
    warnings: (s, core) =>
      s.secretPepper === DEVELOPMENT_PEPPER &&
      !core.database.isEmbedded &&
      core.nodeEnv === 'development'
        ? [
            'API_SECRET_PEPPER is not set: secrets and webhook signing keys on this database are protected by the public development pepper. Set a long random value before storing real credentials (it is required with NODE_ENV=production).',
          ]
        : [],
  },
);

export type AuthSettings = SettingsOf<typeof authSettings>;
