import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { resolve } from 'node:path';
import { EnvironmentVariables } from './env.schema.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The typed, defaulted settings. Built once from the environment; nothing else reads env. */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  http: {
    host: string;
    port: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    shutdownGraceMs: number;
  };
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
  /** Caches in front of the SISA registries (SPEC 3: minutes for hits, shorter for misses). */
  registryCache: {
    ttlSeconds: number;
    negativeTtlSeconds: number;
    /** How long past its lifetime a professional record may be served while REFEPS is down. */
    staleTtlSeconds: number;
    maxEntries: number;
    /** Citizen data (hits and misses) is kept only this long and never served stale. */
    personaTtlSeconds: number;
  };
  ministry: {
    clientId: string;
    clientSecret: string;
    retryDelaySeconds: number;
    maxAttempts: number;
    /** Off: registrations queue their notification but no worker delivers (benchmarks). */
    deliveryEnabled: boolean;
    workerConcurrency: number;
    /** Prescription types whose registration must be reported (SPEC 4; default all). */
    notifyTypes: string[];
    /** A delivery job whose worker died is retried after this long. */
    jobExpireSeconds: number;
  };
  /** pg-boss keeps its tables in `schema` (separate schemas isolate deployments sharing a database). */
  queue: { schema: string; pollIntervalSeconds: number; maintenanceIntervalSeconds: number };
  auth: {
    /** Server-side key of the secret hashes; changing it invalidates every issued secret. */
    secretPepper: string;
    cacheTtlMs: number;
    rateLimitStore: 'memory' | 'postgres';
    defaultRateLimitPerMinute: number;
    /** Failed authentications per address and minute before 429. */
    failuresPerMinute: number;
  };
  webhooks: {
    /** Allow private, loopback and link-local webhook targets (tests, on-premises receivers). */
    allowPrivate: boolean;
    timeoutMs: number;
    maxAttempts: number;
    retryDelaySeconds: number;
  };
  insurerName: string;
  /** The catalogue mirror's sync: every N minutes (0: only at start when empty, and the CLI). */
  catalog: {
    syncIntervalMinutes: number;
    syncPageSize: number;
    syncOnStart: boolean;
    /** Search results are kept this long per query (0: not cached). */
    searchCacheSeconds: number;
  };
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
  // An empty value means "not set" (as in .env.example), never an empty setting.
  const given = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const raw = plainToInstance(EnvironmentVariables, given, { enableImplicitConversion: false });
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
      keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 65000,
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
    registryCache: {
      ttlSeconds: raw.REGISTRY_CACHE_TTL_SECONDS ?? 300,
      negativeTtlSeconds: raw.REGISTRY_NEGATIVE_CACHE_TTL_SECONDS ?? 60,
      staleTtlSeconds: raw.REGISTRY_STALE_TTL_SECONDS ?? 3600,
      maxEntries: raw.REGISTRY_CACHE_MAX_ENTRIES ?? 10000,
      personaTtlSeconds: raw.PERSONA_CACHE_TTL_SECONDS ?? 60,
    },
    ministry: {
      clientId: raw.MINISTERIO_CLIENT_ID ?? 'sandbox',
      clientSecret: raw.MINISTERIO_CLIENT_SECRET ?? 'sandbox',
      retryDelaySeconds: raw.MINISTRY_RETRY_DELAY_SECONDS ?? 30,
      maxAttempts: raw.MINISTRY_MAX_ATTEMPTS ?? 10,
      deliveryEnabled: raw.MINISTRY_DELIVERY_ENABLED ?? true,
      workerConcurrency: raw.MINISTRY_WORKER_CONCURRENCY ?? 4,
      notifyTypes:
        raw.MINISTRY_NOTIFY_TYPES === 'none'
          ? []
          : (raw.MINISTRY_NOTIFY_TYPES ?? '01,02,03').split(','),
      jobExpireSeconds: raw.MINISTRY_JOB_EXPIRE_SECONDS ?? 60,
    },
    queue: {
      schema: raw.QUEUE_SCHEMA ?? 'pgboss',
      pollIntervalSeconds: raw.QUEUE_POLL_INTERVAL_SECONDS ?? 1,
      maintenanceIntervalSeconds: raw.QUEUE_MAINTENANCE_INTERVAL_SECONDS ?? 30,
    },
    auth: {
      secretPepper: raw.API_SECRET_PEPPER ?? 'development-only-pepper-change-me',
      cacheTtlMs: raw.AUTH_CACHE_TTL_MS ?? 5000,
      rateLimitStore: (raw.RATE_LIMIT_STORE ?? 'memory') as 'memory' | 'postgres',
      defaultRateLimitPerMinute: raw.RATE_LIMIT_DEFAULT_PER_MINUTE ?? 600,
      failuresPerMinute: raw.AUTH_FAILURES_PER_MINUTE ?? 30,
    },
    webhooks: {
      allowPrivate: raw.WEBHOOK_ALLOW_PRIVATE ?? false,
      timeoutMs: raw.WEBHOOK_TIMEOUT_MS ?? 5000,
      maxAttempts: raw.WEBHOOK_MAX_ATTEMPTS ?? 8,
      retryDelaySeconds: raw.WEBHOOK_RETRY_DELAY_SECONDS ?? 10,
    },
    insurerName: raw.INSURER_NAME ?? 'pami',
    catalog: {
      syncIntervalMinutes: raw.CATALOG_SYNC_INTERVAL_MINUTES ?? 1440,
      syncPageSize: raw.CATALOG_SYNC_PAGE_SIZE ?? 500,
      syncOnStart: raw.CATALOG_SYNC_ON_START ?? true,
      searchCacheSeconds: raw.CATALOG_SEARCH_CACHE_SECONDS ?? 60,
    },
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
