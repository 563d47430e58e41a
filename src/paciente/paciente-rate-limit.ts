import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import {
  authSettings,
  type AuthSettings,
  consumeOrRefuse,
  RateLimiters,
  setRateLimitHeaders,
} from '../auth/auth.public.js';
import { claveDerivada } from '../common/crypto/clave-derivada.js';
import { clientAddressKey } from '../common/http/client-address.js';
import { InjectSettings } from '../config/settings.js';
import { pacienteSettings } from './paciente.settings.js';
import type { PacienteSettings } from './paciente.settings.js';

const WINDOW_SECONDS = 60;
/** The citizen budget key's label under the pepper (SPEC 11.2: a key of its own). */
const LABEL_CUIL = 'prescription-registry/limite-paciente/v1';

/** A budget's state after a request counted against it. */
export interface Budget {
  limit: number;
  state: RateLimiterRes;
}

/**
 * The patient routes' two budgets (contract §8), counted in RATE_LIMIT_STORE like the API
 * clients': per client address, every attempt — bad tokens too, so guessing is throttled
 * before any token is looked at — and per citizen (the verified token's CUIL). Over either:
 * 429 RATE_LIMITED with Retry-After. The RateLimit-* headers describe the budget nearer its
 * end.
 */
@Injectable()
export class PacienteRateLimit {
  private readonly porIp: RateLimiterAbstract;
  private readonly porCuil: RateLimiterAbstract;
  private readonly claveCuil: KeyObject;

  constructor(
    limiters: RateLimiters,
    @InjectSettings(pacienteSettings) private readonly settings: PacienteSettings,
    @InjectSettings(authSettings) auth: AuthSettings,
  ) {
    this.claveCuil = createSecretKey(claveDerivada(auth.secretPepper, LABEL_CUIL));
    const { porIpPorMinuto, porMinuto } = settings.rateLimit;
    const window = { duration: WINDOW_SECONDS };
    this.porIp = limiters.create({ ...window, points: porIpPorMinuto, keyPrefix: 'paciente-ip' });
    this.porCuil = limiters.create({ ...window, points: porMinuto, keyPrefix: 'paciente-cuil' });
  }

  /** Counts an attempt from the request's address (its /64 for IPv6); throws 429 past its budget. */
  address(req: Request, res: Response): Promise<Budget> {
    return this.consume(
      this.porIp,
      this.settings.rateLimit.porIpPorMinuto,
      clientAddressKey(req),
      res,
    );
  }

  /** Counts a verified citizen's request; throws 429 past its budget. */
  async citizen(cuil: string, res: Response, byAddress: Budget): Promise<void> {
    // Keyed (SPEC 11.2): the CUIL holds the DNI, and a shared store keeps its keys in a table,
    // where a bare hash would confirm a guessed DNI.
    const key = createHmac('sha256', this.claveCuil).update(cuil).digest('base64url');
    const own = await this.consume(this.porCuil, this.settings.rateLimit.porMinuto, key, res);
    const nearer = nearerItsEnd(own, byAddress);
    setRateLimitHeaders(res, nearer.limit, nearer.state);
  }

  private async consume(
    limiter: RateLimiterAbstract,
    limit: number,
    key: string,
    res: Response,
  ): Promise<Budget> {
    const message = `Rate limit of ${limit} requests per minute exceeded`;
    return { limit, state: await consumeOrRefuse(limiter, limit, key, res, message) };
  }
}

const nearerItsEnd = (a: Budget, b: Budget): Budget =>
  b.state.remainingPoints < a.state.remainingPoints ? b : a;
