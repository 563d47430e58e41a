import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
} from 'class-validator';

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * Every setting the service reads, as it arrives in the environment. Validated once at start;
 * the typed, defaulted view the code uses is AppConfig (app-config.ts).
 */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @IsString()
  EMBEDDED_DB_DIR?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  EMBEDDED_DB_PORT?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  SANDBOX_PORT?: number;

  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'must be exactly 4 digits' })
  CUIR_PLATFORM_ID?: string;

  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'must be exactly 4 digits' })
  CUIR_REPOSITORY_ID?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl(URL_OPTIONS)
  REFEPS_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl(URL_OPTIONS)
  RENAPER_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl(URL_OPTIONS)
  CATALOGO_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl(URL_OPTIONS)
  MINISTERIO_BASE_URL?: string;

  @IsOptional()
  @IsString()
  SISA_USUARIO?: string;

  @IsOptional()
  @IsString()
  SISA_CLAVE?: string;

  @IsOptional()
  @IsString()
  MINISTERIO_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  MINISTERIO_CLIENT_SECRET?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60000)
  REGISTRY_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(5)
  REGISTRY_MAX_ATTEMPTS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  REGISTRY_BREAKER_THRESHOLD?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600000)
  REGISTRY_BREAKER_HALF_OPEN_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  REGISTRY_MAX_CONCURRENCY?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86400)
  REGISTRY_CACHE_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86400)
  REGISTRY_NEGATIVE_CACHE_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(604800)
  REGISTRY_STALE_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  REGISTRY_CACHE_MAX_ENTRIES?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  PERSONA_CACHE_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  MINISTRY_RETRY_DELAY_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  MINISTRY_MAX_ATTEMPTS?: number;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  MINISTRY_DELIVERY_ENABLED?: boolean;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  MINISTRY_WORKER_CONCURRENCY?: number;

  @IsOptional()
  @Matches(/^(0[1-3])(,0[1-3])*$|^none$/, {
    message: 'must be a comma list of prescription types (01,02,03) or none',
  })
  MINISTRY_NOTIFY_TYPES?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(5)
  @Max(3600)
  MINISTRY_JOB_EXPIRE_SECONDS?: number;

  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,49}$/, { message: 'must be a lower-case SQL identifier' })
  QUEUE_SCHEMA?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  QUEUE_POLL_INTERVAL_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  QUEUE_MAINTENANCE_INTERVAL_SECONDS?: number;

  @IsOptional()
  @Matches(/^[a-z][a-z0-9_]{0,30}$/, {
    message: 'must be a lower-case identifier (letters, digits, underscore)',
  })
  INSURER_NAME?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10080)
  CATALOG_SYNC_INTERVAL_MINUTES?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(1000)
  CATALOG_SYNC_PAGE_SIZE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  CATALOG_SEARCH_CACHE_SECONDS?: number;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  CATALOG_SYNC_ON_START?: boolean;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(120000)
  REQUEST_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60000)
  SHUTDOWN_GRACE_MS?: number;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DEMO_CLIENT?: boolean;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl(URL_OPTIONS)
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE?: boolean;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60000)
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50)
  WEBHOOK_MAX_ATTEMPTS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  WEBHOOK_RETRY_DELAY_SECONDS?: number;

  @IsOptional()
  @IsString()
  @Matches(/^.{16,}$/, { message: 'must be at least 16 characters' })
  API_SECRET_PEPPER?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60000)
  AUTH_CACHE_TTL_MS?: number;

  @IsOptional()
  @IsIn(['memory', 'postgres'])
  RATE_LIMIT_STORE?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100000)
  AUTH_FAILURES_PER_MINUTE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  RATE_LIMIT_DEFAULT_PER_MINUTE?: number;
}
