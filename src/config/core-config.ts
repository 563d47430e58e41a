import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { CoreVariables } from './core.variables.js';
import { ConfigError } from './config-error.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type NodeEnv = 'development' | 'production' | 'test';

/** The typed, defaulted core settings (see core.variables.ts). */
export type CoreConfig = ReturnType<typeof buildCoreConfig>;

/**
 * In production nothing falls back to an emulator or the embedded database (reporting
 * prescriptions to the sandbox would show them COMPLETED while the ministry never heard of them).
 */
const REQUIRED_IN_PRODUCTION = [
  'DATABASE_URL',
  'REFEPS_BASE_URL',
  'RENAPER_BASE_URL',
  'CATALOGO_BASE_URL',
  'MINISTERIO_BASE_URL',
] as const;

export function buildCoreConfig(v: CoreVariables) {
  const nodeEnv = (v.NODE_ENV ?? 'development') as NodeEnv;
  if (nodeEnv === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => v[name] === undefined);
    if (missing.length > 0)
      throw new ConfigError(
        missing.map((name) => `${name}: is required when NODE_ENV=production (no default there)`),
      );
  }
  if (v.DATABASE_READ_URL !== undefined && v.DATABASE_URL === undefined)
    throw new ConfigError([
      'DATABASE_READ_URL: needs DATABASE_URL (a replica of the embedded PostgreSQL is not supported)',
    ]);
  if (v.DATABASE_MIGRATION_URL !== undefined && v.DATABASE_URL === undefined)
    throw new ConfigError([
      'DATABASE_MIGRATION_URL: needs DATABASE_URL (the embedded PostgreSQL runs as one role)',
    ]);
  const concurrency = v.REGISTRY_MAX_CONCURRENCY ?? 20;
  return {
    nodeEnv,
    logLevel: (v.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info')) as LogLevel,
    logFormat: v.LOG_FORMAT as 'json' | 'pretty' | undefined,
    http: {
      host: v.HOST ?? '0.0.0.0',
      port: v.PORT ?? 3000,
      requestTimeoutMs: v.REQUEST_TIMEOUT_MS ?? 15000,
      maxInFlight: v.HTTP_MAX_IN_FLIGHT ?? 64,
      /** 1: a single process. */
      workers: v.WEB_CONCURRENCY ?? availableParallelism(),
      keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 65000,
      shutdownGraceMs: v.SHUTDOWN_GRACE_MS ?? 10000,
      trustProxy: trustProxy(v.TRUST_PROXY),
    },
    publicBaseUrl: v.PUBLIC_BASE_URL,
    database: {
      /** Unset: the embedded PostgreSQL, whose URL the bootstrap fills in. */
      url: v.DATABASE_URL,
      /** The role that migrates and owns the tables (database/runtime-grants.ts); unset: `url`. */
      migrationUrl: v.DATABASE_MIGRATION_URL,
      readUrl: v.DATABASE_READ_URL,
      isEmbedded: v.DATABASE_URL === undefined,
      poolSize: v.DATABASE_POOL_SIZE ?? 10,
      /** `dirIsDefault`: EMBEDDED_DB_DIR unset (root may then move it: effectiveDataDir). */
      embedded: {
        dir: resolve(v.EMBEDDED_DB_DIR ?? '.data/postgres'),
        dirIsDefault: v.EMBEDDED_DB_DIR === undefined,
        port: v.EMBEDDED_DB_PORT ?? 0,
      },
    },
    queue: {
      schema: v.QUEUE_SCHEMA ?? 'pgboss',
      pollIntervalSeconds: v.QUEUE_POLL_INTERVAL_SECONDS ?? 1,
      maintenanceIntervalSeconds: v.QUEUE_MAINTENANCE_INTERVAL_SECONDS ?? 30,
    },
    /** `url`: set by the bootstrap when it started the sandbox. */
    sandbox: { port: v.SANDBOX_PORT ?? 4010, url: undefined as string | undefined },
    upstreams: {
      refepsBaseUrl: v.REFEPS_BASE_URL,
      renaperBaseUrl: v.RENAPER_BASE_URL,
      catalogoBaseUrl: v.CATALOGO_BASE_URL,
      ministerioBaseUrl: v.MINISTERIO_BASE_URL,
      sisaUser: v.SISA_USUARIO ?? 'sandbox',
      sisaPassword: v.SISA_CLAVE ?? 'sandbox',
    },
    /** The policy of every external system (common/resilience/resilience-policy.ts). */
    resilience: {
      /** Per attempt; `maxAttempts` in all, for idempotent calls only. */
      timeoutMs: v.REGISTRY_TIMEOUT_MS ?? 3000,
      maxAttempts: v.REGISTRY_MAX_ATTEMPTS ?? 2,
      breakerThreshold: v.REGISTRY_BREAKER_THRESHOLD ?? 5,
      halfOpenAfterMs: v.REGISTRY_BREAKER_HALF_OPEN_MS ?? 10000,
      /** Concurrent calls; more wait in a queue of `bulkheadQueue`, beyond it fail at once. */
      bulkheadLimit: concurrency,
      bulkheadQueue: concurrency * 5,
    },
  };
}

/** The URL the migrations run over: DATABASE_MIGRATION_URL, else DATABASE_URL. */
export const migrationUrl = (c: CoreConfig): string | undefined =>
  c.database.migrationUrl ?? c.database.url;

export function coreWarnings(c: CoreConfig): string[] {
  return c.nodeEnv === 'production' && c.database.migrationUrl === undefined
    ? [
        "DATABASE_MIGRATION_URL is not set: the service connects as the owner of its tables, so its own credentials could disable the event log's triggers and rewrite it. Set it to a role that owns the schema; DATABASE_URL's role is then granted only what the service needs.",
      ]
    : [];
}

/** The base URL others reach this service at (the verification URLs it hands out). */
export const publicBaseUrl = (c: CoreConfig): string =>
  (c.publicBaseUrl ?? `http://127.0.0.1:${c.http.port}`).replace(/\/$/, '');

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY as Express takes it; never `true`, which lets any client pick its address. */
function trustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') {
    throw new ConfigError([
      "TRUST_PROXY: true would believe any client's X-Forwarded-For; give the number of proxies in front of the service, or their addresses",
    ]);
  }
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !PROXY_NAMES.has(e) && !isAddressOrCidr(e));
  if (bad.length > 0) {
    throw new ConfigError([
      `TRUST_PROXY: not an address, CIDR or loopback/linklocal/uniquelocal: ${bad.join(', ')}`,
    ]);
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
