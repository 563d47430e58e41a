import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { consumeOrRefuse, RateLimiters } from '../auth/auth.public.js';
import { clientAddressKey } from '../common/http/client-address.js';
import { InjectSettings } from '../config/inject-settings.js';
import { publicoSettings, type PublicoSettings } from './publico.settings.js';

/**
 * Views of the public page per client address (VERIFICACION_PUBLICA_POR_MINUTO) in
 * RATE_LIMIT_STORE: nobody is identified here, so the address is all there is to slow a walk.
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

  /** Counts a view from the request's address (its /64 for IPv6); throws 429 past the budget. */
  async view(req: Request, res: Response): Promise<void> {
    const limit = this.settings.porMinuto;
    const message = `Rate limit of ${limit} views per minute exceeded`;
    await consumeOrRefuse(this.porIp, limit, clientAddressKey(req), res, message);
  }
}
