import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiters, rateLimited, retryAfterSeconds } from '../auth/auth.public.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import { currentRequestId } from '../common/http/request-scope.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { MetricsService } from '../common/metrics/metrics.service.js';
import { InjectSettings } from '../config/inject-settings.js';
import { verificacionSettings, type VerificacionSettings } from './verificacion.settings.js';

/**
 * Keeps CUIRs from being walked (contract §3, SPEC 9.1.6 and 11.5): a client's lookups that find
 * nothing (verification, reserve, dispense, reverse, release) share one budget a minute in
 * RATE_LIMIT_STORE; past VERIFICACION_FALLOS_POR_MINUTO every one of those routes answers that
 * client 429 until the minute ends, found ones included (else a hit would still show). The one
 * count that takes it to limit + 1 (the store increments atomically) logs and counts the block:
 * once per client and minute, whichever instance answers.
 */
@Injectable()
export class EnumeracionLimiter {
  private readonly misses: RateLimiterAbstract;
  private readonly limit: number;
  private readonly blocked: Counter;
  private readonly log: Logger;

  constructor(
    rateLimiters: RateLimiters,
    metrics: MetricsService,
    @Inject(ROOT_LOGGER) logger: Logger,
    @InjectSettings(verificacionSettings) settings: VerificacionSettings,
  ) {
    this.limit = settings.fallosPorMinuto;
    this.misses = rateLimiters.create({
      points: this.limit,
      duration: 60,
      keyPrefix: 'verificacion-fallos',
    });
    // No client label: the log line names the client; labels stay a bounded set.
    this.blocked = new Counter({
      name: 'verificacion_enumeration_blocked_total',
      help: 'Clients refused verification and dispensation by CUIR for the rest of a minute after too many unknown CUIRs (possible enumeration); one per client and minute, counted by the instance that refused first',
      registers: [metrics.registry],
    });
    this.log = logger.child({ component: 'verificacion' });
  }

  /** 429 RATE_LIMITED while the client is past its misses of this minute, else null. */
  async refusal(clientId: string): Promise<DomainError | null> {
    const state = await this.misses.get(clientId);
    if (!state || state.consumedPoints < this.limit) return null;
    // Past limit + 1 the block was reported already: nothing more to write.
    const r = state.consumedPoints === this.limit ? await this.count(clientId) : state;
    return this.tooMany(r);
  }

  /** What a route answers when `what` was not found: 404, counted; past the limit, its 429. */
  async notFound(clientId: string, what: string): Promise<DomainError> {
    return (await this.missed(clientId)) ?? notFound(what);
  }

  private tooMany(state: RateLimiterRes): DomainError {
    return rateLimited(
      `Too many unknown CUIRs (${this.limit} per minute); verification and dispensation by CUIR are refused until the minute ends`,
      state,
    );
  }

  /**
   * Counts a lookup that found nothing; past the limit, the 429 it answers instead of the 404.
   * Concurrent misses all pass refusal() (a read): this atomic count decides, so exactly `limit`
   * misses a minute learn "not found".
   */
  async missed(clientId: string): Promise<DomainError | null> {
    const r = await this.count(clientId);
    return r.consumedPoints > this.limit ? this.tooMany(r) : null;
  }

  private async count(clientId: string): Promise<RateLimiterRes> {
    const r = await this.misses.penalty(clientId, 1);
    if (r.consumedPoints === this.limit + 1) {
      this.blocked.inc();
      this.log.warn(
        {
          client_id: clientId,
          request_id: currentRequestId(),
          fallos_por_minuto: this.limit,
          retry_after_s: retryAfterSeconds(r),
        },
        'possible CUIR enumeration: too many unknown CUIRs in a minute; verification and dispensation by CUIR refused to this client until the minute ends',
      );
    }
    return r;
  }
}
