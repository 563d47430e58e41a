import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import {
  authSettings,
  type AuthSettings,
  consumeOrRefuse,
  RateLimiters,
  setRateLimitHeaders,
} from '../auth/auth.public.js';
import { claveDerivada } from '../common/crypto/clave-derivada.js';
import { DomainError } from '../common/errors/domain-error.js';
import { clientAddressKey } from '../common/http/client-address.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import {
  bearerToken,
  CitizenTokenRejected,
  CitizenTokenVerifier,
} from './citizen-token.verifier.js';
import { pacienteSettings, type PacienteSettings } from './paciente.settings.js';

/** The citizen budget key's label under the pepper (SPEC 11.2: a key of its own). */
const LABEL_CUIL = 'prescription-registry/limite-paciente/v1';

/** The request of a citizen whose token was verified: the CUIL it was issued for. */
export interface RequestWithCitizen extends RequestWithContext {
  citizenCuil?: string;
}

/**
 * The patient routes' credential (contract §8): a Mi Argentina token in `Authorization: Bearer`
 * (API keys mean nothing here), every refusal one 401 with its reason logged. Two budgets in
 * RATE_LIMIT_STORE, each 429 past it: per address, every attempt, before the token is looked at;
 * then per citizen (the token's CUIL). The RateLimit-* headers describe the one nearer its end.
 */
@Injectable()
export class CitizenTokenGuard implements CanActivate {
  private readonly log: Logger;
  private readonly porIp: RateLimiterAbstract;
  private readonly porCuil: RateLimiterAbstract;
  private readonly claveCuil: KeyObject;

  constructor(
    private readonly verifier: CitizenTokenVerifier,
    limiters: RateLimiters,
    @InjectSettings(pacienteSettings) private readonly settings: PacienteSettings,
    @InjectSettings(authSettings) auth: AuthSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'paciente' });
    this.claveCuil = createSecretKey(claveDerivada(auth.secretPepper, LABEL_CUIL));
    const perMinute = (points: number, keyPrefix: string) =>
      limiters.create({ duration: 60, points, keyPrefix });
    this.porIp = perMinute(settings.rateLimit.porIpPorMinuto, 'paciente-ip');
    this.porCuil = perMinute(settings.rateLimit.porMinuto, 'paciente-cuil');
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithCitizen>();
    const res = context.switchToHttp().getResponse<Response>();
    const { porIpPorMinuto, porMinuto } = this.settings.rateLimit;
    const byAddress = await this.consume(this.porIp, porIpPorMinuto, clientAddressKey(req), res);
    try {
      req.citizenCuil = await this.verifier.verify(bearerToken(req.headers.authorization));
    } catch (err) {
      if (err instanceof DomainError && err.cause instanceof CitizenTokenRejected) {
        this.log.info(
          { request_id: req.requestId, reason: err.cause.reason },
          'citizen token refused',
        );
      }
      throw err;
    }
    // Keyed (SPEC 11.2): the CUIL holds the DNI, and a shared store keeps its keys in a table,
    // where a bare hash would confirm a guessed DNI.
    const key = createHmac('sha256', this.claveCuil).update(req.citizenCuil).digest('base64url');
    const own = await this.consume(this.porCuil, porMinuto, key, res);
    const nearer = byAddress.state.remainingPoints < own.state.remainingPoints ? byAddress : own;
    setRateLimitHeaders(res, nearer.limit, nearer.state);
    return true;
  }

  private async consume(limiter: RateLimiterAbstract, limit: number, key: string, res: Response) {
    const message = `Rate limit of ${limit} requests per minute exceeded`;
    const state: RateLimiterRes = await consumeOrRefuse(limiter, limit, key, res, message);
    return { limit, state };
  }
}
