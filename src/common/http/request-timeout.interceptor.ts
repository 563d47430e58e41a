import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
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
    const ms = this.config.http.requestTimeoutMs;
    // One timer per request (rxjs's timeout operator costs several subscriptions and a
    // scheduler action on every request).
    return new Observable((subscriber) => {
      const timer = setTimeout(
        () =>
          subscriber.error(new DomainError('INTERNAL', 'The request timed out; it may be retried')),
        ms,
      );
      const inner = next.handle().subscribe({
        next: (value) => subscriber.next(value),
        error: (err: unknown) => {
          clearTimeout(timer);
          subscriber.error(err);
        },
        complete: () => {
          clearTimeout(timer);
          subscriber.complete();
        },
      });
      return () => {
        clearTimeout(timer);
        inner.unsubscribe();
      };
    });
  }
}
