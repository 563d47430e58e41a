import { IsOptional, IsString } from 'class-validator';
import { Documented } from '../config/setting-docs.js';
import { BoolSetting, IntSetting, OneOfSetting } from '../config/setting-decorators.js';
import { DEVELOPMENT_PEPPER } from '../config/production-secret.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class AuthVariables {
  /** Key of the secret hashes and of the webhook-secret encryption. */
  @Documented('key of the secret hashes and webhook-secret encryption; production: 32+ chars', {
    defaultText: 'dev value',
    env: 'server key of the secret hashes and of the webhook-secret encryption (>= 16 chars; in production required, >= 32 random chars from >= 16 distinct, no repeated pattern, not a placeholder, unlike every other secret: e.g. openssl rand -base64 48); unset outside production: a public development value, and a start on a real database warns about it. Changing it invalidates every issued secret.',
  })
  @IsOptional()
  @IsString()
  API_SECRET_PEPPER?: string;
  @Documented('credential cache (revocation delay)', {
    default: 5000,
    env: 'verified credentials are cached this long: revocation bites within it',
  })
  @IntSetting(0, 60000)
  AUTH_CACHE_TTL_MS?: number;
  @Documented('`postgres` shares counters across instances', {
    default: 'memory',
    env: 'memory (one instance) | postgres (shared by every instance)',
  })
  @OneOfSetting(['memory', 'postgres'])
  RATE_LIMIT_STORE?: string;
  @Documented('default per-client limit', { default: 600 })
  @IntSetting(1, 1000000)
  RATE_LIMIT_DEFAULT_PER_MINUTE?: number;
  @Documented('failed authentications per address and key before 429 (see security notes)', {
    default: 30,
    env: 'failed authentications per minute, per client address and presented key, before that key is answered 429 from that address (valid credentials are never refused; 10x this per address in all)',
  })
  @IntSetting(1, 100000)
  AUTH_FAILURES_PER_MINUTE?: number;
  @Documented(
    'create once with every scope and print (any database; `true` with DATABASE_URL too)',
    {
      defaultText: 'on with the embedded database',
      env: 'default: on with the embedded database (prints demo credentials at start; created once with every scope, then kept as the operator leaves it: narrowed scopes stay, a revoked one is not replaced)',
    },
  )
  @BoolSetting()
  DEMO_CLIENT?: boolean;
}

export const authSettings = defineSettings(
  'auth',
  AuthVariables,
  (v, core) => ({
    /** Server-side key of the secret hashes; changing it invalidates every issued secret. */
    secretPepper: v.API_SECRET_PEPPER ?? DEVELOPMENT_PEPPER,
    cacheTtlMs: v.AUTH_CACHE_TTL_MS ?? 5000,
    rateLimitStore: (v.RATE_LIMIT_STORE ?? 'memory') as 'memory' | 'postgres',
    defaultRateLimitPerMinute: v.RATE_LIMIT_DEFAULT_PER_MINUTE ?? 600,
    failuresPerMinute: v.AUTH_FAILURES_PER_MINUTE ?? 30,
    demoClient: v.DEMO_CLIENT ?? core.database.isEmbedded,
  }),
  {
    title: 'API clients',
    // Keyed as text (an HMAC key of its UTF-8 bytes); required in production.
    secrets: (v) => [{ name: 'API_SECRET_PEPPER', value: v.API_SECRET_PEPPER }],
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
