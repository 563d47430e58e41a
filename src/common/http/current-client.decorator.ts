import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedClient, RequestWithContext } from './request-context.js';

/** The client the AuthGuard authenticated; every /v1 handler acts on its behalf. */
export const CurrentClient = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthenticatedClient => {
    const client = ctx.switchToHttp().getRequest<RequestWithContext>().apiClient;
    if (!client) throw new Error('CurrentClient used on a route without authentication');
    return client;
  },
);
