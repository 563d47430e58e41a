import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiters, rateLimited } from './rate-limiters.js';
import { InjectSettings } from '../config/inject-settings.js';
import { authSettings, type AuthSettings } from './auth.settings.js';

/** An address's failures with all keys together: bounds the counters it can create. */
const ADDRESS_CEILING_FACTOR = 10;

/**
 * Slows down credential guessing without locking anyone else out: after
 * AUTH_FAILURES_PER_MINUTE failed authentications per client address and presented key, that
 * key from that address is answered 429 instead of 401. Valid credentials are never refused,
 * so a client sharing the address (a proxy, a NAT) or owning the guessed key keeps working.
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
   * For a request whose credentials failed: throws 429 when this address (clientAddressKey) has
   * used up its failures with this key or with all, else counts this one (the caller answers 401).
   */
  async failed(address: string, key: string | undefined): Promise<void> {
    // A digest: presented keys are up to 200 characters of anything, and are only compared.
    const pair = `${address} ${key === undefined ? '-' : createHash('sha256').update(key).digest('base64url')}`;
    for (const [limiter, id] of [
      [this.byAddress, address],
      [this.byKey, pair],
    ] as const) {
      const state = await limiter.get(id);
      if (state && state.consumedPoints >= limiter.points) {
        throw rateLimited('Too many failed authentication attempts; retry later', state);
      }
    }
    await this.byAddress.penalty(address, 1);
    await this.byKey.penalty(pair, 1);
  }
}
