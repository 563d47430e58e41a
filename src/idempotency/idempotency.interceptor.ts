import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainError } from '../common/errors/domain-error.js';
import { statusOf } from '../common/errors/error-codes.js';
import { errorEnvelope } from '../common/errors/error-envelope.js';
import { PreEncodedError, PreEncodedJson } from '../common/http/pre-encoded-json.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { onSlowWork } from '../common/http/slow-work.js';
import {
  IdempotencyClaim,
  IdempotencyKeyTaken,
  RequestWithClaim,
  StoredAnswer,
  StoredOutcome,
} from './idempotency-claim.js';
import { IdempotencyService } from './idempotency.service.js';

export const SETTLED_IN_WRITE = 'idempotency:settled-in-write';

/** Answers about the key itself: never stored as the key's outcome. */
const KEY_ERRORS = new Set(['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS']);

/** Applies the Idempotency-Key rules around one handler; the rules live in IdempotencyService. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<RequestWithClaim>();
    const key = req.headers['idempotency-key'];
    if (key === undefined || !req.apiClient) return next.handle();
    return from(this.run(context, next, req, req.apiClient.id, key));
  }

  private async run(
    context: ExecutionContext,
    next: CallHandler,
    req: RequestWithClaim,
    clientId: string,
    rawKey: string | string[],
  ): Promise<unknown> {
    const key = this.idempotency.parseKey(rawKey);
    const fp = this.idempotency.fingerprint(req.method, `${req.baseUrl}${req.path}`, req.body);
    const res = context.switchToHttp().getResponse<Response>();
    const claim = new IdempotencyClaim(clientId, key, fp, successStatus(context), () =>
      this.idempotency.begin(clientId, key, fp),
    );
    req.idempotencyClaim = claim;
    try {
      if (Reflect.getMetadata(SETTLED_IN_WRITE, context.getHandler()) !== true) await claim.hold();
      const data: unknown = await onSlowWork(
        () => claim.hold(),
        () => lastValueFrom(next.handle()),
      );
      if (claim.settled) return data;
      const text = JSON.stringify({ success: true, data });
      // The status the handler answered with: @HttpCode's, or its own (201 new, 200 existing).
      const status =
        res.statusCode >= 200 && res.statusCode < 300 ? res.statusCode : claim.successStatus;
      const earlier = await this.settle(claim, { status, text });
      return earlier ? replay(earlier, res) : data;
    } catch (err) {
      return this.answerFailure(err, claim, res, req.requestId);
    }
  }

  /** When the handler (or holding the key) threw: a replay, or `err` rethrown. */
  private async answerFailure(
    err: unknown,
    claim: IdempotencyClaim,
    res: Response,
    requestId: string,
  ): Promise<unknown> {
    if (err instanceof StoredAnswer) return replay(err.outcome, res);
    if (err instanceof IdempotencyKeyTaken) {
      return replay(
        await this.idempotency.afterRefusal(claim.clientId, claim.key, claim.fingerprint),
        res,
      );
    }
    if (err instanceof DomainError && KEY_ERRORS.has(err.code)) throw err;
    const status = err instanceof DomainError ? statusOf(err.code) : 500;
    if (status < 500 && err instanceof DomainError) {
      // The bytes the exception filter is about to send, so a replay repeats them exactly.
      const text = JSON.stringify(errorEnvelope(err.code, err.message, err.details, requestId));
      const earlier = await this.settle(claim, { status, text });
      if (earlier) return replay(earlier, res);
    } else if (claim.held) {
      // A 5xx is not stored: the key is freed so a retry runs again.
      await this.idempotency.abandon(claim.clientId, claim.key);
    }
    throw err;
  }

  /** Stores this request's outcome (holding the key first); returns an answered twin's, if any. */
  private async settle(
    claim: IdempotencyClaim,
    outcome: StoredOutcome,
  ): Promise<StoredOutcome | null> {
    try {
      await claim.hold();
    } catch (err) {
      if (err instanceof StoredAnswer) return err.outcome;
      throw err;
    }
    await this.idempotency.finish(claim.clientId, claim.key, outcome);
    return null;
  }
}

/** The status Nest will answer with (it is applied after interceptors run): @HttpCode, else 201 for POST. */
function successStatus(context: ExecutionContext): number {
  const code = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;
  return (
    code ?? (context.switchToHttp().getRequest<RequestWithContext>().method === 'POST' ? 201 : 200)
  );
}

/** Answers with the stored outcome, byte for byte, marked as a replay. */
function replay(stored: StoredOutcome, res: Response): unknown {
  const headers = { 'Idempotent-Replayed': 'true' };
  if (stored.status >= 400) throw new PreEncodedError(stored.status, stored.text, headers);
  res.setHeader('Idempotent-Replayed', 'true');
  return new PreEncodedJson(stored.text);
}
