import { ErrorCode, ErrorDetail } from './error-codes.js';

/** The one error type services and adapters throw; `cause` is logged, never sent. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.headers = options?.headers;
  }

  readonly headers?: Record<string, string>;
}

export const notFound = (what = 'Resource') => new DomainError('NOT_FOUND', `${what} not found`);

export const validationFailed = (details: ErrorDetail[], message = 'Request validation failed') =>
  new DomainError('VALIDATION_FAILED', message, details);
