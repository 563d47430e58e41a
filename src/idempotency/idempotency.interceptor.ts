import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { catchError, concatMap, from, Observable, of, throwError } from 'rxjs';
import { DomainError } from '../common/errors/domain-error.js';
import { ERROR_STATUS } from '../common/errors/error-codes.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { IdempotencyClaim, RequestWithClaim } from './idempotency-claim.js';
import { IdempotencyService, StoredOutcome } from './idempotency.service.js';

/** Applies the Idempotency-Key rules around one handler; the rules live in IdempotencyService. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithClaim>();
    const res = http.getResponse<Response>();
    const key = req.headers['idempotency-key'];
    if (key === undefined || !req.apiClient) return next.handle();
    const clientId = req.apiClient.id;
    const route = `${req.method} ${req.baseUrl}${(req.route as { path?: string } | undefined)?.path ?? req.path}`;

    return from(this.idempotency.begin(clientId, key, route, req.body)).pipe(
      concatMap((begun) => {
        if (begun.replay) return of(replay(begun.replay, res));
        const claim = new IdempotencyClaim(clientId, begun.key, successStatus(context));
        req.idempotencyClaim = claim;
        return next.handle().pipe(
          concatMap((data) =>
            claim.completed
              ? of(data)
              : from(
                  this.idempotency.finish(clientId, begun.key, claim.successStatus, { data }),
                ).pipe(concatMap(() => of(data))),
          ),
          catchError((err: unknown) => {
            const status = err instanceof DomainError ? ERROR_STATUS[err.code] : 500;
            const settle =
              status < 500 && err instanceof DomainError
                ? this.idempotency.finish(clientId, begun.key, status, {
                    error: { code: err.code, message: err.message, details: err.details },
                  })
                : this.idempotency.abandon(clientId, begun.key);
            return from(settle).pipe(concatMap(() => throwError(() => err)));
          }),
        );
      }),
    );
  }
}

/** The status Nest will answer with (it is applied after interceptors run): @HttpCode, else 201 for POST. */
function successStatus(context: ExecutionContext): number {
  const code = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;
  return (
    code ?? (context.switchToHttp().getRequest<RequestWithContext>().method === 'POST' ? 201 : 200)
  );
}

/** Answers with the stored outcome: same status, same body, marked as a replay. */
function replay(stored: StoredOutcome, res: Response): unknown {
  res.setHeader('Idempotent-Replayed', 'true');
  if ('error' in stored.body) {
    const e = stored.body.error;
    throw new DomainError(e.code, e.message, e.details, {
      headers: { 'Idempotent-Replayed': 'true' },
    });
  }
  res.status(stored.status);
  return stored.body.data;
}
