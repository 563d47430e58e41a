import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
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
    const req = context.switchToHttp().getRequest<RequestWithClaim>();
    const key = req.headers['idempotency-key'];
    if (key === undefined || !req.apiClient) return next.handle();
    // One promise rather than a chain of operators: this runs on every registration.
    return from(this.run(context, next, req, req.apiClient.id, key));
  }

  private async run(
    context: ExecutionContext,
    next: CallHandler,
    req: RequestWithClaim,
    clientId: string,
    rawKey: string | string[],
  ): Promise<unknown> {
    const route = `${req.method} ${req.baseUrl}${(req.route as { path?: string } | undefined)?.path ?? req.path}`;
    const begun = await this.idempotency.begin(clientId, rawKey, route, req.body);
    if (begun.replay) return replay(begun.replay, context.switchToHttp().getResponse<Response>());

    const claim = new IdempotencyClaim(clientId, begun.key, successStatus(context));
    req.idempotencyClaim = claim;
    let data: unknown;
    try {
      data = await lastValueFrom(next.handle());
    } catch (err) {
      const status = err instanceof DomainError ? ERROR_STATUS[err.code] : 500;
      if (status < 500 && err instanceof DomainError) {
        await this.idempotency.finish(clientId, begun.key, status, {
          error: { code: err.code, message: err.message, details: err.details },
        });
      } else {
        await this.idempotency.abandon(clientId, begun.key);
      }
      throw err;
    }
    // A handler that stored its answer in its own statement has settled the key already.
    if (!claim.completed) {
      await this.idempotency.finish(clientId, begun.key, claim.successStatus, { data });
    }
    return data;
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
