import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, Observable, throwError, timeout, TimeoutError } from 'rxjs';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { DomainError } from '../errors/domain-error.js';

/**
 * No request hangs past REQUEST_TIMEOUT_MS: the client gets a 500 in the envelope instead of
 * a stalled socket (e.g. while the database is unreachable). Database statements carry the
 * same limit (statement/query timeout), so the abandoned work stops too.
 */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout(this.config.http.requestTimeoutMs),
      catchError((err: unknown) =>
        throwError(() =>
          err instanceof TimeoutError
            ? new DomainError('INTERNAL', 'The request timed out; it may be retried')
            : err,
        ),
      ),
    );
  }
}
