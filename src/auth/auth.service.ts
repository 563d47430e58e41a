import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ApiClientEntity } from './api-client.entity.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { secretMatches } from './credentials.js';

interface CachedLookup {
  /** null: no active client has this key (cached too, so unknown keys cost the same). */
  client: ApiClientEntity | null;
  expiresAt: number;
}

/** last_used_at is bookkeeping: written at most this often per client. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_CACHE_ENTRIES = 10_000;

/**
 * Verifies X-API-Key / X-API-Secret on the hot path. Client rows are cached for a few seconds
 * (AUTH_CACHE_TTL_MS), so a revocation or rotation bites within that time on every instance;
 * the secret itself is checked on every request against the cached hashes, in constant time.
 */
@Injectable()
export class AuthService {
  private readonly cache = new Map<string, CachedLookup>();
  private readonly inflight = new Map<string, Promise<ApiClientEntity | null>>();
  private readonly lastTouched = new Map<string, number>();
  private readonly log: Logger;

  constructor(
    private readonly clients: ApiClientsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'auth' });
  }

  async authenticate(key: string, secret: string): Promise<AuthenticatedClient | null> {
    const client = await this.lookup(key);
    const hashes = client
      ? [client.secretHash, ...(client.nextSecretHash ? [client.nextSecretHash] : [])]
      : [DUMMY_HASH];
    // Hash even for unknown keys, so timing does not reveal which keys exist.
    const ok = secretMatches(this.config.auth.secretPepper, key, secret, hashes);
    if (!client || !ok || !client.active) return null;
    this.touch(client.id);
    return {
      id: client.id,
      name: client.name,
      scopes: client.scopes,
      rateLimitPerMinute: client.rateLimitPerMinute,
      cuirUniqueness: client.cuirUniqueness,
      cuirRules: client.cuirRules,
    };
  }

  private async lookup(key: string): Promise<ApiClientEntity | null> {
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > now) return hit.client;
    // Single flight: a burst of requests for one key makes one query.
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.clients.findByKey(key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const client = await pending;
    if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
    this.cache.set(key, { client, expiresAt: now + this.config.auth.cacheTtlMs });
    return client;
  }

  private touch(id: string): void {
    const now = Date.now();
    if ((this.lastTouched.get(id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    this.lastTouched.set(id, now);
    this.clients.touchLastUsed(id, new Date(now)).catch((err: unknown) => {
      this.log.warn({ err, client_id: id }, 'could not record last use');
    });
  }
}

const DUMMY_HASH = '0'.repeat(64);
