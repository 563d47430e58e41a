import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '../common/errors/domain-error.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import {
  bearerToken,
  CitizenTokenRejected,
  CitizenTokenVerifier,
} from './citizen-token.verifier.js';
import { PacienteRateLimit } from './paciente-rate-limit.js';

/** The request of a citizen whose token was verified: the CUIL it was issued for. */
export interface RequestWithCitizen extends RequestWithContext {
  citizenCuil?: string;
}

/**
 * The patient routes' credential (contract §8): a Mi Argentina token in `Authorization: Bearer`,
 * verified against the issuer's key set. API keys mean nothing here: without a valid token the
 * answer is 401 whatever else the request carries. Every refusal is one answer; its reason is
 * logged (the exception filter logs 5xx only). Rate limited per address before the token is
 * looked at, then per citizen (PacienteRateLimit).
 */
@Injectable()
export class CitizenTokenGuard implements CanActivate {
  private readonly log: Logger;

  constructor(
    private readonly verifier: CitizenTokenVerifier,
    private readonly rateLimit: PacienteRateLimit,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ component: 'paciente' });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithCitizen>();
    const res = context.switchToHttp().getResponse<Response>();
    const byAddress = await this.rateLimit.address(req, res);
    try {
      req.citizenCuil = await this.verifier.verify(bearerToken(req.headers.authorization));
      await this.rateLimit.citizen(req.citizenCuil, res, byAddress);
      return true;
    } catch (err) {
      if (err instanceof DomainError && err.cause instanceof CitizenTokenRejected) {
        this.log.info(
          { request_id: req.requestId, reason: err.cause.reason },
          'citizen token refused',
        );
      }
      throw err;
    }
  }
}
