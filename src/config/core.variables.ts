import { IsOptional, IsString } from 'class-validator';
import { Documented } from './setting-docs.js';
import { IntSetting, OneOfSetting, PatternSetting, UrlSetting } from './setting-decorators.js';

/** The settings of no one module: process, HTTP listener, database, job queue, external systems. */
export class CoreVariables {
  @Documented('`production`: see Production (required settings, pepper rules, https webhooks)', {
    section: 'Runtime',
    default: 'development',
    env: 'development | production | test (production: see above; webhooks need https)',
  })
  @OneOfSetting(['development', 'production', 'test'])
  NODE_ENV?: string;
  @Documented('HTTP listener: port', { default: 3000 })
  @IntSetting(0, 65535)
  PORT?: number;
  @Documented('HTTP listener: address', { default: '0.0.0.0' })
  @IsOptional()
  @IsString()
  HOST?: string;
  @Documented('no request (or its SQL) outlives this; headers and body must arrive within it', {
    default: 15000,
    env: "no request outlives this; database statements carry the same limit, and a request's headers and body must arrive within it (else 408)",
  })
  @IntSetting(1000, 120000)
  REQUEST_TIMEOUT_MS?: number;
  @Documented('worker processes sharing the port (1: one process, no cluster)', {
    defaultText: 'one per CPU',
    env: 'worker processes sharing the HTTP port (SPEC 13); default one per CPU (os.availableParallelism). The primary process starts the embedded database, the sandbox and the migrations once; 1: a single process',
  })
  @IntSetting(1, 256)
  WEB_CONCURRENCY?: number;
  @Documented(
    'requests one process works on at once; past it, 503 at once (health and metrics exempt)',
    {
      default: 64,
      env: 'requests one process works on at once (SPEC 13); past it a request is answered 503 SERVICE_UNAVAILABLE with Retry-After at once, before any work; /health and /metrics are never shed. Size it from the measured capacity (BENCHMARKS.md, "The national mix")',
    },
  )
  @IntSetting(1, 100000)
  HTTP_MAX_IN_FLIGHT?: number;
  @Documented('idle keep-alive connections closed after this', {
    default: 65000,
    env: "idle keep-alive connections are closed after this; keep it above your load balancer's idle timeout",
  })
  @IntSetting(1000, 600000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;
  @Documented('proxies whose `X-Forwarded-For` gives the client address: hop count or CIDRs', {
    default: false,
    env: 'which proxies\' X-Forwarded-For to believe for the client address (Express "trust proxy"): false, the number of proxies in front of the service, or their addresses/CIDRs (comma-separated; loopback, linklocal, uniquelocal also work). Never true: any client could pick its address.',
  })
  @PatternSetting(
    /^(false|\d{1,2}|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/,
    'must be false, a hop count, or a comma-separated list of addresses or CIDRs',
  )
  TRUST_PROXY?: string;
  @Documented('drain time on SIGTERM', {
    default: 10000,
    env: 'SIGTERM: time to finish in-flight requests and deliveries',
  })
  @IntSetting(0, 60000)
  SHUTDOWN_GRACE_MS?: number;
  @Documented('pino logs; document numbers, names and secrets are redacted', {
    default: 'info',
    env: 'fatal | error | warn | info | debug | trace | silent (pino logs; document numbers, names and secrets are redacted)',
  })
  @OneOfSetting(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;
  @Documented('`json` or `pretty`', {
    defaultText: 'pretty on a terminal, else json',
    env: 'json | pretty; unset: one readable line per event on a terminal, JSON lines otherwise',
  })
  @OneOfSetting(['json', 'pretty'])
  LOG_FORMAT?: string;
  @Documented('base of the verification URL sent to the ministry', {
    defaultText: 'http://127.0.0.1:PORT',
    env: "how others reach this service (the ministry's verification URL); default http://127.0.0.1:PORT",
  })
  @UrlSetting()
  PUBLIC_BASE_URL?: string;

  @Documented('PostgreSQL URL; unset: the embedded PostgreSQL server in `EMBEDDED_DB_DIR`', {
    section: 'Database',
    env: 'postgres://user:pass@host:5432/db ; unset: an embedded PostgreSQL server (npm package binaries)',
  })
  @PatternSetting(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// connection URL')
  DATABASE_URL?: string;
  @Documented("the role that migrates and owns the tables; DATABASE_URL's role gets only grants", {
    defaultText: '`DATABASE_URL`',
    env: "postgres:// URL of the role that runs the migrations and owns the tables; DATABASE_URL's role is then granted only what the service needs (it cannot rewrite the event log). Unset: DATABASE_URL (a warning with NODE_ENV=production). Needs DATABASE_URL.",
  })
  @PatternSetting(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// connection URL')
  DATABASE_MIGRATION_URL?: string;
  @Documented(
    'a streaming replica for the reads that tolerate lag (verification by CUIR, public page, later listing pages, search)',
    {
      defaultText: 'none',
      env: "postgres:// URL of a streaming replica of DATABASE_URL's database: the reads that tolerate lag go there (verification by CUIR, the public page, later listing pages, the catalogue search); unset: every read on the primary. Needs DATABASE_URL.",
    },
  )
  @PatternSetting(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// connection URL')
  DATABASE_READ_URL?: string;
  @Documented('pool size', { default: 10 })
  @IntSetting(1, 100)
  DATABASE_POOL_SIZE?: number;
  @Documented('embedded cluster folder', {
    default: '.data/postgres',
    env: 'where the embedded server keeps its cluster (password in <dir>.password, log in <dir>.log)',
  })
  @IsOptional()
  @IsString()
  EMBEDDED_DB_DIR?: string;
  @Documented('embedded cluster loopback port (0: a free one)', {
    default: 0,
    env: 'loopback port it listens on (0: any free port; announced in <dir>.server.json)',
  })
  @IntSetting(0, 65535)
  EMBEDDED_DB_PORT?: number;

  @Documented('job queue: schema of its tables', { section: 'Job queue', default: 'pgboss' })
  @PatternSetting(/^[a-z_][a-z0-9_]{0,49}$/, 'must be a lower-case SQL identifier')
  QUEUE_SCHEMA?: string;
  @Documented('job queue: poll interval', { default: 1 })
  @IntSetting(1, 3600)
  QUEUE_POLL_INTERVAL_SECONDS?: number;
  @Documented('job queue: maintenance interval', { default: 30 })
  @IntSetting(1, 86400)
  QUEUE_MAINTENANCE_INTERVAL_SECONDS?: number;

  @Documented('the sandbox, when a registry URL is unset', {
    section: 'Sandbox (emulated SISA REFEPS/RENAPER, catalogue, ministry)',
    default: 4010,
    env: 'when started by the service because a registry URL is unset',
  })
  @IntSetting(0, 65535)
  SANDBOX_PORT?: number;

  @Documented('external system: REFEPS (through SISA)', {
    section: 'External systems',
    defaultText: 'sandbox',
  })
  @UrlSetting()
  REFEPS_BASE_URL?: string;
  @Documented('external system: RENAPER (through SISA)', { defaultText: 'sandbox' })
  @UrlSetting()
  RENAPER_BASE_URL?: string;
  @Documented('external system: the medication catalogue', { defaultText: 'sandbox' })
  @UrlSetting()
  CATALOGO_BASE_URL?: string;
  @Documented("external system: the ministry's pointer API", { defaultText: 'sandbox' })
  @UrlSetting()
  MINISTERIO_BASE_URL?: string;
  @Documented('SISA credentials (never logged): user', {
    default: 'sandbox',
    env: 'SISA web-service credentials (never logged): user',
  })
  @IsOptional()
  @IsString()
  SISA_USUARIO?: string;
  @Documented('SISA credentials (never logged): password', {
    default: 'sandbox',
    env: 'SISA web-service credentials (never logged): password',
  })
  @IsOptional()
  @IsString()
  SISA_CLAVE?: string;
  @Documented('timeout per attempt of every external call', {
    default: 3000,
    env: 'per attempt, every external call',
  })
  @IntSetting(100, 60000)
  REGISTRY_TIMEOUT_MS?: number;
  @Documented('attempts for idempotent reads (jittered backoff)', {
    default: 2,
    env: 'attempts in all for idempotent reads (jittered backoff)',
  })
  @IntSetting(1, 5)
  REGISTRY_MAX_ATTEMPTS?: number;
  @Documented('circuit breaker per system: consecutive failed calls that open it', {
    default: 5,
  })
  @IntSetting(1, 100)
  REGISTRY_BREAKER_THRESHOLD?: number;
  @Documented('circuit breaker per system: how long it stays open before a trial call', {
    default: 10000,
  })
  @IntSetting(100, 600000)
  REGISTRY_BREAKER_HALF_OPEN_MS?: number;
  @Documented('bulkhead per system', {
    default: 20,
    env: 'bulkhead per system (queue of 5x behind it)',
  })
  @IntSetting(1, 1000)
  REGISTRY_MAX_CONCURRENCY?: number;
}
