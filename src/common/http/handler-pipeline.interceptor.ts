import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Observable } from 'rxjs';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { DomainError } from '../errors/domain-error.js';
import { UndeclaredQueryCheck } from '../validation/undeclared-query.js';
import { PreEncodedJson } from './pre-encoded-json.js';
import { RAW_RESPONSE } from './raw-response.decorator.js';

/**
 * What every handler gets around it, in ONE interceptor (each interceptor is a few rxjs
 * subscriptions per request; four of them were measurable on the registration's CPU):
 *
 * - contract §1's refusal of query parameters a handler does not declare (UndeclaredQueryCheck);
 * - REQUEST_TIMEOUT_MS: no request hangs past it — the client gets a 500 in the envelope
 *   instead of a stalled socket (e.g. while the database is unreachable); database statements
 *   carry the same limit, so the abandoned work stops too;
 * - the success envelope of contract §1, `{ success: true, data }` (a PreEncodedJson answer is sent
 *   as its text: an idempotent replay, byte for byte), except for raw-answer handlers.
 *
 * The request's scope (its id for the event log) is set by requestScopeMiddleware.
 */
@Injectable()
export class HandlerPipelineInterceptor implements NestInterceptor {
  private readonly raw = new WeakMap<object, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly undeclaredQuery: UndeclaredQueryCheck,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.isRaw(context);
    this.undeclaredQuery.assert(context, raw);
    const ms = this.config.http.requestTimeoutMs;
    return new Observable((subscriber) => {
      const timer = setTimeout(
        () =>
          subscriber.error(new DomainError('INTERNAL', 'The request timed out; it may be retried')),
        ms,
      );
      const inner = next.handle().subscribe({
        next: (value) => subscriber.next(raw ? value : envelope(value, context)),
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

  private isRaw(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let raw = this.raw.get(handler);
    if (raw === undefined) {
      raw =
        this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [handler, context.getClass()]) ??
        false;
      this.raw.set(handler, raw);
    }
    return raw;
  }
}

function envelope(data: unknown, context: ExecutionContext): unknown {
  if (!(data instanceof PreEncodedJson)) return { success: true, data };
  context
    .switchToHttp()
    .getResponse<Response>()
    .setHeader('Content-Type', 'application/json; charset=utf-8');
  return data.text;
}
