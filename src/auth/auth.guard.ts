import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../common/errors/domain-error.js';
import { clientAddressKey } from '../common/http/client-address.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';
import { AuthService } from './auth.service.js';
import { PUBLIC_KEY, SCOPES_KEY } from '../common/http/access.js';
import type { Scope } from '../common/http/scopes.js';

/**
 * Global guard: both credential headers, a valid and active client, and the route's scope.
 * One answer (401) for every credential problem, so it is no oracle; 429 once the address failed
 * too often with the key (AuthFailureLimiter). Routes opt out explicitly with @Public().
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const req = context.switchToHttp().getRequest<RequestWithContext>();
    const key = req.headers['x-api-key'];
    const secret = req.headers['x-api-secret'];
    const client =
      isHeader(key) && isHeader(secret) ? await this.auth.authenticate(key, secret) : null;
    if (!client) {
      await this.failures.failed(clientAddressKey(req), isHeader(key) ? key : undefined);
      throw new DomainError('UNAUTHENTICATED', 'Missing or invalid X-API-Key / X-API-Secret');
    }
    req.apiClient = client;

    const required = this.reflector.getAllAndOverride<Scope[]>(SCOPES_KEY, targets) ?? [];
    // A route that forgot to declare its scope is closed, not open.
    if (required.length === 0 || !required.every((s) => client.scopes.includes(s))) {
      throw new DomainError(
        'FORBIDDEN',
        `This client lacks the scope ${required.join(', ') || '(undeclared)'}`,
      );
    }
    return true;
  }
}

const isHeader = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= 200;
