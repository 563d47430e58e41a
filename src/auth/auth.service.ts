import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import { authSettings, type AuthSettings } from './auth.settings.js';
import { ApiClientEntity } from './api-client.entity.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { secretMatches } from './credentials.js';

interface CachedLookup {
  /** null: no active client has this key (cached too, so unknown keys cost the same). */
  client: ApiClientEntity | null;
  expiresAt: number;
  /** When the row was read: a failed check re-reads it only if it is older than REREAD_MS. */
  loadedAt: number;
  /**
   * The secrets that matched this row's hashes, as presented: a repeat is compared in constant
   * time instead of hashed again (the HMAC was the dearest part). Dropped with the entry.
   */
  verified: Buffer[];
}

/** last_used_at is bookkeeping: written at most this often per client. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_CACHE_ENTRIES = 10_000;
/** A failed check re-reads the row at most this often per key: a new secret works at once. */
const REREAD_MS = 250;

/**
 * Verifies X-API-Key / X-API-Secret on the hot path. Client rows are cached AUTH_CACHE_TTL_MS
 * (a revocation bites within it); the secret is checked on every request, in constant time.
 */
@Injectable()
export class AuthService {
  private readonly cache = new Map<string, CachedLookup>();
  private readonly inflight = new Map<string, Promise<ApiClientEntity | null>>();
  private readonly lastTouched = new Map<string, number>();
  private readonly log: Logger;

  constructor(
    private readonly clients: ApiClientsRepository,
    @InjectSettings(authSettings) private readonly settings: AuthSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'auth' });
  }

  async authenticate(key: string, secret: string): Promise<AuthenticatedClient | null> {
    let entry = await this.lookup(key, false);
    let ok = this.matches(entry, key, secret);
    // Unknown keys take the same path as wrong secrets, so timing tells them apart no better.
    if (!ok && Date.now() - entry.loadedAt >= REREAD_MS) {
      entry = await this.lookup(key, true);
      ok = this.matches(entry, key, secret);
    }
    const client = entry.client;
    if (!client || !ok || !client.active) return null;
    this.touch(client.id);
    return {
      id: client.id,
      name: client.name,
      scopes: client.scopes,
      rateLimitPerMinute: client.rateLimitPerMinute,
      cuirUniqueness: client.cuirUniqueness,
      cuirRules: client.cuirRules,
      cuirPlatformId: client.cuirPlatformId,
      jurisdicciones: client.jurisdicciones,
    };
  }

  private matches(entry: CachedLookup, key: string, secret: string): boolean {
    const presented = Buffer.from(secret, 'utf8');
    if (entry.verified.some((v) => v.length === presented.length && timingSafeEqual(v, presented)))
      return true;
    const client = entry.client;
    const hashes = client
      ? [client.secretHash, ...(client.nextSecretHash ? [client.nextSecretHash] : [])]
      : [DUMMY_HASH];
    // Hash even for unknown keys, so timing does not reveal which keys exist.
    const ok = secretMatches(this.settings.secretPepper, key, secret, hashes);
    // Only a matching secret is remembered: at most one per hash of the row.
    if (ok && client) entry.verified.push(presented);
    return ok;
  }

  /** The key's row from the cache, or from the database when `reread` or not cached. */
  private async lookup(key: string, reread: boolean): Promise<CachedLookup> {
    const now = Date.now();
    const hit = this.cache.get(key);
    if (!reread && hit && hit.expiresAt > now) return hit;
    // Single flight: a burst of requests for one key makes one query.
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.clients.findByKey(key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const client = await pending;
    if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
    const entry: CachedLookup = {
      client,
      expiresAt: now + this.settings.cacheTtlMs,
      loadedAt: Date.now(),
      verified: [],
    };
    this.cache.set(key, entry);
    return entry;
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
