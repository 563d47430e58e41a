import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiters, rateLimited } from './rate-limiters.js';
import { InjectSettings } from '../config/inject-settings.js';
import { authSettings } from './auth.settings.js';
import type { AuthSettings } from './auth.settings.js';

/**
 * Every key an address tries counts against this many times AUTH_FAILURES_PER_MINUTE of
 * failures in all: it bounds the counters one address can create by sending new keys.
 */
const ADDRESS_CEILING_FACTOR = 10;

/**
 * Slows down credential guessing without locking anyone else out. Only failed
 * authentications are counted, per client address and presented key: after
 * AUTH_FAILURES_PER_MINUTE of them, that key from that address is answered 429 instead of
 * 401. A request with valid credentials is never refused, so a valid client sharing the
 * address (a proxy, a NAT) — or owning the key being guessed at — keeps working. Counted where
 * every limit is (RATE_LIMIT_STORE; a cluster's primary for its workers).
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly byKey: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(@InjectSettings(authSettings) settings: AuthSettings, limiters: RateLimiters) {
    const points = settings.failuresPerMinute;
    this.byKey = limiters.create({ points, duration: 60, keyPrefix: 'auth-fail' });
    this.byAddress = limiters.create({
      points: points * ADDRESS_CEILING_FACTOR,
      duration: 60,
      keyPrefix: 'auth-fail-address',
    });
  }

  /**
   * For a request whose credentials failed: throws 429 when this address has used up its
   * failures with this key (or with all keys together), else counts this one and returns, so
   * the caller answers 401. `address` is the client's address key (clientAddressKey: an IPv6
   * address's /64); `key` is the X-API-Key presented, or undefined for none.
   */
  async failed(address: string, key: string | undefined): Promise<void> {
    // A digest: presented keys are up to 200 characters of anything, and are only compared.
    const pair = `${address} ${key === undefined ? '-' : createHash('sha256').update(key).digest('base64url')}`;
    for (const [limiter, id] of [
      [this.byAddress, address],
      [this.byKey, pair],
    ] as const) {
      const state = await limiter.get(id);
      if (state && state.consumedPoints >= limiter.points) throw limited(state);
    }
    await this.byAddress.penalty(address, 1);
    await this.byKey.penalty(pair, 1);
  }
}

const limited = (state: RateLimiterRes) =>
  rateLimited('Too many failed authentication attempts; retry later', state);
