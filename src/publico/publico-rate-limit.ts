import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiters, rateLimited, setRateLimitHeaders } from '../auth/auth.public.js';
import { InjectSettings } from '../config/settings.js';
import { publicoSettings } from './publico.settings.js';
import type { PublicoSettings } from './publico.settings.js';

/**
 * Views of the public page per client address (VERIFICACION_PUBLICA_POR_MINUTO), counted in
 * RATE_LIMIT_STORE like every other limit: nobody is identified here, so the address is all
 * there is to slow a walk.
 */
@Injectable()
export class PublicoRateLimit {
  private readonly porIp: RateLimiterAbstract;

  constructor(
    limiters: RateLimiters,
    @InjectSettings(publicoSettings) private readonly settings: PublicoSettings,
  ) {
    this.porIp = limiters.create({
      duration: 60,
      points: settings.porMinuto,
      keyPrefix: 'publico-ip',
    });
  }

  /** Counts a view from `address`; throws 429 RATE_LIMITED past the budget. */
  async view(address: string, res: Response): Promise<void> {
    const limit = this.settings.porMinuto;
    try {
      setRateLimitHeaders(res, limit, await this.porIp.consume(address));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      setRateLimitHeaders(res, limit, rejection);
      throw rateLimited(`Rate limit of ${limit} views per minute exceeded`, rejection);
    }
  }
}
