import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import type { LogLevel } from '../../config/app-config.js';

/**
 * Fields that may carry personal data or secrets, wherever they appear in a log object.
 * Logs never carry a document number, a name or a secret (SPEC 6).
 */
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

/** Query parameters whose values are personal data or credentials, scrubbed from logged URLs. */
const SENSITIVE_QUERY = /([?&](?:documento|nrodoc|usuario|clave|client_secret|secret)=)[^&#]*/gi;

export function scrubUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, '$1[REDACTED]');
}

export function createRootLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'prescription-registry' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** Routes Nest's own log calls into the structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
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
