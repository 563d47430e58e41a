import { IsOptional, IsString } from 'class-validator';
import { IntSetting, OneOfSetting, PatternSetting, UrlSetting } from './setting-decorators.js';

/**
 * The settings that belong to no one module: the process, the HTTP listener, the database,
 * the job queue, and the deployment's external systems (whether each is real or the sandbox
 * is decided for all of them at start). Each module's own settings live in its folder.
 */
export class CoreVariables {
  @OneOfSetting(['development', 'production', 'test']) NODE_ENV?: string;
  @OneOfSetting(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL?: string;
  /** pretty: one readable line per event; json: JSON lines; unset: pretty on a terminal. */
  @OneOfSetting(['json', 'pretty']) LOG_FORMAT?: string;

  @IntSetting(0, 65535) PORT?: number;
  @IsOptional() @IsString() HOST?: string;
  @IntSetting(1000, 120000) REQUEST_TIMEOUT_MS?: number;
  @IntSetting(1000, 600000) HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;
  @IntSetting(0, 60000) SHUTDOWN_GRACE_MS?: number;
  @UrlSetting() PUBLIC_BASE_URL?: string;
  /** Which proxies' X-Forwarded-For to believe: false, a hop count, or addresses/CIDRs. */
  @PatternSetting(
    /^(false|\d{1,2}|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/,
    'must be false, a hop count, or a comma-separated list of addresses or CIDRs',
  )
  TRUST_PROXY?: string;

  @PatternSetting(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// connection URL')
  DATABASE_URL?: string;
  /** The role that runs the migrations (and owns the tables); unset: DATABASE_URL's. */
  @PatternSetting(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// connection URL')
  DATABASE_MIGRATION_URL?: string;
  /**
   * A streaming replica of DATABASE_URL's database: the reads that tolerate lag go there
   * (database/transactions.ts onReplica); unset: every read on the primary.
   */
  @PatternSetting(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// connection URL')
  DATABASE_READ_URL?: string;
  @IntSetting(1, 100) DATABASE_POOL_SIZE?: number;
  @IsOptional() @IsString() EMBEDDED_DB_DIR?: string;
  @IntSetting(0, 65535) EMBEDDED_DB_PORT?: number;

  @PatternSetting(/^[a-z_][a-z0-9_]{0,49}$/, 'must be a lower-case SQL identifier')
  QUEUE_SCHEMA?: string;
  @IntSetting(1, 3600) QUEUE_POLL_INTERVAL_SECONDS?: number;
  @IntSetting(1, 86400) QUEUE_MAINTENANCE_INTERVAL_SECONDS?: number;

  @IntSetting(0, 65535) SANDBOX_PORT?: number;
  @UrlSetting() REFEPS_BASE_URL?: string;
  @UrlSetting() RENAPER_BASE_URL?: string;
  @UrlSetting() CATALOGO_BASE_URL?: string;
  @UrlSetting() MINISTERIO_BASE_URL?: string;
  @IsOptional() @IsString() SISA_USUARIO?: string;
  @IsOptional() @IsString() SISA_CLAVE?: string;
  @IntSetting(100, 60000) REGISTRY_TIMEOUT_MS?: number;
  @IntSetting(1, 5) REGISTRY_MAX_ATTEMPTS?: number;
  @IntSetting(1, 100) REGISTRY_BREAKER_THRESHOLD?: number;
  @IntSetting(100, 600000) REGISTRY_BREAKER_HALF_OPEN_MS?: number;
  @IntSetting(1, 1000) REGISTRY_MAX_CONCURRENCY?: number;
}
