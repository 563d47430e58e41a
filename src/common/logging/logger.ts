import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { LogLevel } from '../../config/core-config.js';

/** Fields that may carry personal data or secrets (contract §6: logs carry none). */
const REDACT_PATHS = [
  '*.documento',
  '*.documento_paciente',
  '*.nrodoc',
  '*.nombre',
  '*.apellido',
  '*.secret',
  '*.clave',
  '*.password',
  '*.authorization',
  '*["x-api-secret"]',
  'documento',
  'documento_paciente',
  'nombre',
  'apellido',
  'secret',
  'headers["x-api-secret"]',
  'headers.authorization',
];

/** Query parameters whose values are enums or dates: logged when sane. */
const LOGGED_QUERY_VALUES = new Set(['fecha_desde', 'fecha_hasta', 'estado']);
/** Query parameters that hold a person's data or a secret: never logged. */
const PERSONAL_QUERY_KEYS =
  /^(documento|documento_paciente|dni|nrodoc|cuil|cuit|nombre|apellido|matricula|f|token|secret|clave|password)$/;
const SANE_VALUE = /^[0-9A-Za-z:+.-]{1,40}$/;
const WORD = /^[a-z][a-z0-9_-]{0,39}$/;
/** A route's word, or a served file's name (the document, the docs' assets). */
const FILE_NAME = /^[a-z][a-z0-9_-]{0,39}(\.(json|yaml|js|css|map|png|ico|html|txt)){0,2}$/;
/** An id, a page, a code: digits, short enough to be no CUIR. */
const NUMBER = /^\d{1,18}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A DNI, with or without dots. */
const DNI_SHAPE = /^\d{1,2}\.?\d{3}\.?\d{3}$/;
/** A CUIL or CUIT without dashes (with dashes it is no number, and no word either). */
const CUIL_SHAPE = /^\d{11}$/;
/** A random key, hash or token in lower case: long, letters and digits mixed. */
const TOKEN_SHAPE = /^(?=[a-z0-9_-]*\d)(?=[a-z0-9_-]*[a-z])[a-z0-9_-]{16,}$/;

const REDACTED = '[REDACTED]';
const identifiesNobody = (n: string) => !DNI_SHAPE.test(n) && !CUIL_SHAPE.test(n);

/**
 * A path segment stays when it cannot be personal data or a secret: a route's word or a file
 * name (lower case, no token), a number that is no DNI, CUIL or CUIR, or a UUID.
 */
function pathSegment(seg: string): string {
  if (seg === '') return seg;
  if (NUMBER.test(seg)) return identifiesNobody(seg) ? seg : REDACTED;
  if (UUID.test(seg)) return seg;
  return FILE_NAME.test(seg) && !TOKEN_SHAPE.test(seg.split('.')[0]) ? seg : REDACTED;
}

/** A query value stays when it is a number that identifies nobody, or a sane enum or date. */
function queryValue(key: string, value: string): string {
  if (PERSONAL_QUERY_KEYS.test(key)) return REDACTED;
  if (NUMBER.test(value)) return identifiesNobody(value) ? value : REDACTED;
  return LOGGED_QUERY_VALUES.has(key) && SANE_VALUE.test(value) && !DNI_SHAPE.test(value)
    ? value
    : REDACTED;
}

/** The URL as logged: each part is client input, kept only when its shape identifies nobody. */
export function scrubUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).split('/').map(pathSegment).join('/');
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq < 0 ? pair : pair.slice(0, eq);
      // A key that is no word (a DNI sent as a key) hides its value too.
      if (!WORD.test(key)) return eq < 0 ? REDACTED : `${REDACTED}=${REDACTED}`;
      return eq < 0 ? key : `${key}=${queryValue(key, pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Errors without TypeORM's `parameters` nor PostgreSQL's `detail`/`where`, which quote values. */
function errSerializer(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  delete out.parameters;
  const driver = out.driverError as Record<string, unknown> | undefined;
  if (driver && typeof driver === 'object') {
    out.driverError = {
      code: driver.code,
      constraint: driver.constraint,
      table: driver.table,
      column: driver.column,
      routine: driver.routine,
    };
  }
  delete out.detail;
  delete out.where;
  return out;
}

const BASE_OPTIONS: pino.LoggerOptions = {
  base: { service: 'prescription-registry' },
  timestamp: pino.stdTimeFunctions.isoTime,
  serializers: { err: errSerializer },
  formatters: { level: (label) => ({ level: label }) },
};

/** The root logger; `format` unset: readable on a terminal, JSON lines otherwise. */
export function createRootLogger(
  level: LogLevel,
  destination?: pino.DestinationStream,
  format?: 'json' | 'pretty',
): Logger {
  const pretty =
    destination === undefined &&
    (format ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  return pino(
    { ...BASE_OPTIONS, level, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } },
    destination ??
      (pretty
        ? pinoPretty({
            sync: true,
            translateTime: 'SYS:HH:MM:ss.l',
            ignore: 'pid,hostname,service',
            messageKey: 'msg',
            singleLine: true,
          })
        : // Asynchronous: no blocking syscall per line under load; main.ts flushes on shutdown.
          pino.destination({ dest: 1, sync: false })),
  );
}

/**
 * `root`'s destination and level without the redaction pass (a measurable share of a request's
 * CPU), for the access line only, whose fields cannot hold personal data.
 */
export function createAccessLogger(root: Logger): Logger {
  const destination = (root as unknown as Record<symbol, pino.DestinationStream>)[
    pino.symbols.streamSym
  ];
  return pino({ ...BASE_OPTIONS, level: root.level }, destination);
}

/** Routes Nest's own log calls into the structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  /** Nest's informational lines (one per module and route at start) are for debugging. */
  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
