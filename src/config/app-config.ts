import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { resolve } from 'node:path';
import { EnvironmentVariables } from './env.schema.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The typed, defaulted settings. Built once from the environment; nothing else reads env. */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  http: { host: string; port: number; requestTimeoutMs: number; shutdownGraceMs: number };
  /** Where the service can be reached by others (the ministry's verification URL uses it). */
  publicBaseUrl?: string;
  database: {
    /** Unset: the embedded PGlite is started and this is filled in by the bootstrap. */
    url?: string;
    poolSize: number;
    embedded: { dir: string; port: number };
  };
  sandbox: { port: number };
  cuir: { platformId: string; repositoryId: string };
  registries: {
    refepsBaseUrl?: string;
    renaperBaseUrl?: string;
    catalogoBaseUrl?: string;
    ministerioBaseUrl?: string;
    timeoutMs: number;
    sisaUser: string;
    sisaPassword: string;
  };
  /** The outbound-call policy shared by every external system (timeout is registries.timeoutMs). */
  resilience: {
    maxAttempts: number;
    breakerThreshold: number;
    halfOpenAfterMs: number;
    bulkheadLimit: number;
    bulkheadQueue: number;
  };
  ministry: {
    clientId: string;
    clientSecret: string;
    retryDelaySeconds: number;
    maxAttempts: number;
  };
  auth: {
    /** Server-side key of the secret hashes; changing it invalidates every issued secret. */
    secretPepper: string;
    cacheTtlMs: number;
    rateLimitStore: 'memory' | 'postgres';
    defaultRateLimitPerMinute: number;
  };
  insurerName: string;
  logLevel: LogLevel;
  demoClient: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
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

/** Validates the environment and returns the typed settings, or throws ConfigError naming each bad setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = plainToInstance(
    EnvironmentVariables,
    { ...env },
    { enableImplicitConversion: false },
  );
  const errors = validateSync(raw, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(describe(errors));

  const nodeEnv = (raw.NODE_ENV ?? 'development') as AppConfig['nodeEnv'];
  if (nodeEnv === 'production' && !raw.API_SECRET_PEPPER) {
    throw new ConfigError(['API_SECRET_PEPPER: is required when NODE_ENV=production']);
  }
  return {
    nodeEnv,
    http: {
      host: raw.HOST ?? '0.0.0.0',
      port: raw.PORT ?? 3000,
      requestTimeoutMs: raw.REQUEST_TIMEOUT_MS ?? 15000,
      shutdownGraceMs: raw.SHUTDOWN_GRACE_MS ?? 10000,
    },
    publicBaseUrl: raw.PUBLIC_BASE_URL,
    database: {
      url: raw.DATABASE_URL,
      poolSize: raw.DATABASE_POOL_SIZE ?? 10,
      embedded: {
        dir: resolve(raw.EMBEDDED_DB_DIR ?? '.data/pglite'),
        port: raw.EMBEDDED_DB_PORT ?? 0,
      },
    },
    sandbox: { port: raw.SANDBOX_PORT ?? 4010 },
    cuir: {
      platformId: raw.CUIR_PLATFORM_ID ?? '0001',
      repositoryId: raw.CUIR_REPOSITORY_ID ?? '0001',
    },
    registries: {
      refepsBaseUrl: raw.REFEPS_BASE_URL,
      renaperBaseUrl: raw.RENAPER_BASE_URL,
      catalogoBaseUrl: raw.CATALOGO_BASE_URL,
      ministerioBaseUrl: raw.MINISTERIO_BASE_URL,
      timeoutMs: raw.REGISTRY_TIMEOUT_MS ?? 3000,
      sisaUser: raw.SISA_USUARIO ?? 'sandbox',
      sisaPassword: raw.SISA_CLAVE ?? 'sandbox',
    },
    resilience: {
      maxAttempts: raw.REGISTRY_MAX_ATTEMPTS ?? 2,
      breakerThreshold: raw.REGISTRY_BREAKER_THRESHOLD ?? 5,
      halfOpenAfterMs: raw.REGISTRY_BREAKER_HALF_OPEN_MS ?? 10000,
      bulkheadLimit: raw.REGISTRY_MAX_CONCURRENCY ?? 20,
      bulkheadQueue: (raw.REGISTRY_MAX_CONCURRENCY ?? 20) * 5,
    },
    ministry: {
      clientId: raw.MINISTERIO_CLIENT_ID ?? 'sandbox',
      clientSecret: raw.MINISTERIO_CLIENT_SECRET ?? 'sandbox',
      retryDelaySeconds: raw.MINISTRY_RETRY_DELAY_SECONDS ?? 30,
      maxAttempts: raw.MINISTRY_MAX_ATTEMPTS ?? 10,
    },
    auth: {
      secretPepper: raw.API_SECRET_PEPPER ?? 'development-only-pepper-change-me',
      cacheTtlMs: raw.AUTH_CACHE_TTL_MS ?? 5000,
      rateLimitStore: (raw.RATE_LIMIT_STORE ?? 'memory') as 'memory' | 'postgres',
      defaultRateLimitPerMinute: raw.RATE_LIMIT_DEFAULT_PER_MINUTE ?? 600,
    },
    insurerName: raw.INSURER_NAME ?? 'pami',
    logLevel: (raw.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info')) as LogLevel,
    demoClient: raw.DEMO_CLIENT ?? raw.DATABASE_URL === undefined,
  };
}

/** Any registry base URL left unset is served by the in-process sandbox. */
export function needsSandbox(config: AppConfig): boolean {
  const r = config.registries;
  return !r.refepsBaseUrl || !r.renaperBaseUrl || !r.catalogoBaseUrl || !r.ministerioBaseUrl;
}

export function withSandbox(config: AppConfig, sandboxUrl: string): AppConfig {
  const r = config.registries;
  return {
    ...config,
    registries: {
      ...r,
      refepsBaseUrl: r.refepsBaseUrl ?? sandboxUrl,
      renaperBaseUrl: r.renaperBaseUrl ?? sandboxUrl,
      catalogoBaseUrl: r.catalogoBaseUrl ?? sandboxUrl,
      ministerioBaseUrl: r.ministerioBaseUrl ?? sandboxUrl,
    },
  };
}

export function withDatabaseUrl(config: AppConfig, url: string, poolSize?: number): AppConfig {
  return {
    ...config,
    database: { ...config.database, url, poolSize: poolSize ?? config.database.poolSize },
  };
}
