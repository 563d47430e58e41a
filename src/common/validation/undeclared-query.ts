import { ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { unknownFields } from './unknown-fields.js';

/** Contract §1's refusal of query parameters on handlers that declare no @Query() (the pipe does the rest). */
@Injectable()
export class UndeclaredQueryCheck {
  private readonly declaresQuery = new WeakMap<object, boolean>();

  /** Throws UNKNOWN_FIELD when the handler declares no query and the request sends one. */
  assert(context: ExecutionContext, rawAnswer: boolean): void {
    const handler = context.getHandler();
    let declares = this.declaresQuery.get(handler);
    if (declares === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
        {}) as Record<string, unknown>;
      declares =
        rawAnswer || Object.keys(args).some((k) => k.startsWith(`${RouteParamtypes.QUERY}:`));
      this.declaresQuery.set(handler, declares);
    }
    if (declares) return;
    const keys = Object.keys(context.switchToHttp().getRequest<Request>().query ?? {});
    if (keys.length > 0) throw unknownFields(keys, 'query parameter');
  }
}
