import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Observable } from 'rxjs';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { DomainError } from '../errors/domain-error.js';
import { statusOf } from '../errors/error-codes.js';
import type { RequestWithContext } from './request-context.js';
import { unknownFields } from '../validation/unknown-fields.js';
import { PreEncodedJson } from './pre-encoded-json.js';
import { RAW_RESPONSE } from './raw-response.decorator.js';

/**
 * What every handler gets around it, in ONE interceptor (each costs rxjs subscriptions):
 * - the refusal of query parameters it does not declare (contract §1);
 * - REQUEST_TIMEOUT_MS (SPEC 13): the request's signal aborts, and the answer waits for the work
 *   to end: 503 with Retry-After when it stopped, its own answer when it had committed, 503
 *   anyway after ABANDON_GRACE_MS;
 * - the success envelope (a PreEncodedJson is sent as its text), except for raw-answer handlers.
 */
@Injectable()
export class HandlerPipelineInterceptor implements NestInterceptor {
  private readonly handlers = new WeakMap<object, { raw: boolean; takesQuery: boolean }>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { raw, takesQuery } = this.handlerOf(context);
    const req = context.switchToHttp().getRequest<RequestWithContext>();
    const query = takesQuery ? [] : Object.keys(req.query ?? {});
    if (query.length > 0) throw unknownFields(query, 'query parameter');
    const elapsedMs = Number(process.hrtime.bigint() - req.startedAt) / 1e6;
    const remainingMs = Math.max(0, this.config.http.requestTimeoutMs - elapsedMs);
    return new Observable((subscriber) => {
      let abandon: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        req.abort?.abort();
        abandon = setTimeout(() => subscriber.error(timedOut(true)), ABANDON_GRACE_MS);
      }, remainingMs);
      const stop = () => {
        clearTimeout(timer);
        clearTimeout(abandon);
      };
      const inner = next.handle().subscribe({
        next: (value) => subscriber.next(raw ? value : envelope(value, context)),
        error: (err: unknown) => {
          stop();
          subscriber.error(req.abort?.signal.aborted && !isClientError(err) ? timedOut() : err);
        },
        complete: () => {
          stop();
          subscriber.complete();
        },
      });
      return () => {
        stop();
        inner.unsubscribe();
      };
    });
  }

  /** Worked out once per handler; a handler without a @Query() DTO (or a raw one) takes none. */
  private handlerOf(context: ExecutionContext): { raw: boolean; takesQuery: boolean } {
    const handler = context.getHandler();
    let known = this.handlers.get(handler);
    if (!known) {
      const raw =
        this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [handler, context.getClass()]) ??
        false;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
        {}) as Record<string, unknown>;
      const takesQuery = Object.keys(args).some((k) => k.startsWith(`${RouteParamtypes.QUERY}:`));
      known = { raw, takesQuery: raw || takesQuery };
      this.handlers.set(handler, known);
    }
    return known;
  }
}

/** How long work that was told to stop may take before its request is answered anyway. */
const ABANDON_GRACE_MS = 5000;

/** A refusal the handler decided on its own (a 4xx), which a timeout does not replace. */
const isClientError = (err: unknown): boolean =>
  err instanceof DomainError && statusOf(err.code) < 500;

function timedOut(abandoned = false): DomainError {
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    abandoned
      ? 'The request ran past its time limit and its work did not stop in time; retry (with the same Idempotency-Key for a write)'
      : 'The request ran past its time limit and was stopped; nothing was stored; retry',
    undefined,
    { headers: { 'Retry-After': '1' } },
  );
}

function envelope(data: unknown, context: ExecutionContext): unknown {
  if (!(data instanceof PreEncodedJson)) return { success: true, data };
  context
    .switchToHttp()
    .getResponse<Response>()
    .setHeader('Content-Type', 'application/json; charset=utf-8');
  return data.text;
}
