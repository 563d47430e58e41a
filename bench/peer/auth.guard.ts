import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { Repository } from 'typeorm';
import { ApiClient } from './entities.js';
import { ApiError, IS_PUBLIC, SCOPE } from './http.js';

export type AuthedRequest = Request & { client: ApiClient };

/** How long a looked-up client is reused (the service's AUTH_CACHE_TTL_MS default). */
const CACHE_MS = Number(process.env.PEER_AUTH_CACHE_MS ?? 5000);

/**
 * X-API-Key / X-API-Secret, the way a team would write it: the client is looked up by key in
 * `api_clients` (a short cache, as the service has), and the secret compared with the one the
 * bench gave this process for that key (PEER_CREDENTIALS; hashing secrets as the service does
 * is not part of the comparison). Then the route's scope.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly secrets = new Map<string, Buffer>(
    (
      JSON.parse(process.env.PEER_CREDENTIALS ?? '[]') as Array<{ key: string; secret: string }>
    ).map((c) => [c.key, digest(c.secret)]),
  );
  private readonly cache = new Map<string, { client: ApiClient | null; at: number }>();

  constructor(
    private readonly reflector: Reflector,
    @InjectRepository(ApiClient) private readonly clients: Repository<ApiClient>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const key = req.header('x-api-key');
    const secret = req.header('x-api-secret');
    const unauthenticated = new ApiError(401, 'UNAUTHENTICATED', 'Invalid API credentials');
    if (!key || !secret) throw unauthenticated;
    const client = await this.lookUp(key);
    const expected = this.secrets.get(key);
    if (!client || !client.active || client.revoked_at || !expected) throw unauthenticated;
    if (!timingSafeEqual(digest(secret), expected)) throw unauthenticated;
    const scope = this.reflector.getAllAndOverride<string | undefined>(SCOPE, targets);
    if (scope && !client.scopes.includes(scope))
      throw new ApiError(403, 'FORBIDDEN', `This client lacks the ${scope} scope`);
    req.client = client;
    return true;
  }

  private async lookUp(key: string): Promise<ApiClient | null> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.client;
    const client = await this.clients.findOneBy({ key });
    this.cache.set(key, { client, at: Date.now() });
    return client;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();
