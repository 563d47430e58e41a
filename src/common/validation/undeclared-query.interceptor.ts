import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { DomainError } from '../errors/domain-error.js';
import { RAW_RESPONSE } from '../http/raw-response.decorator.js';
import { Reflector } from '@nestjs/core';

/**
 * SPEC 1 rejects unknown query parameters. Handlers with a @Query() DTO get that from the
 * validation pipe; this covers handlers that declare no query at all, where any parameter is
 * unknown. The answer per handler is computed once and cached.
 */
@Injectable()
export class UndeclaredQueryInterceptor implements NestInterceptor {
  private readonly declaresQuery = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    let declares = this.declaresQuery.get(handler);
    if (declares === undefined) {
      const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [
        handler,
        context.getClass(),
      ]);
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
        {}) as Record<string, unknown>;
      declares = raw || Object.keys(args).some((k) => k.startsWith(`${RouteParamtypes.QUERY}:`));
      this.declaresQuery.set(handler, declares);
    }
    if (!declares) {
      const keys = Object.keys(context.switchToHttp().getRequest<Request>().query ?? {});
      if (keys.length > 0) {
        throw new DomainError(
          'UNKNOWN_FIELD',
          `Unknown query parameter: ${keys.join(', ')}`,
          keys.map((field) => ({ field, issue: 'is not a known query parameter' })),
        );
      }
    }
    return next.handle();
  }
}
